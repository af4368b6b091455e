import type { Logger } from 'pino';
import type { AuthInfo, RequestContext } from '../context/request-context.js';
import { DecorumUsageError, UsageErrorCode } from '../errors/usage-error.js';
import { forwardLogsToClient } from '../logging/mcp-log-forwarding.js';
import type { JsonObject, JsonRpcNotification, JsonRpcRequest } from '../protocol/types.js';
import { Cancellation } from './cancellation.js';
import type { RequestMeta } from './meta.js';
import type { AskSeam, HandlerAsks } from '../asks/handler-asks.js';
import { HandlerContext } from './handler-context.js';

/**
 * How a transport hands one request to the engine: where request-scoped notifications go,
 * and the signal that says the client gave up. This is the whole transport/data-layer seam.
 */
export interface RequestChannel {
  /**
   * The request's cancellation, which the transport cancels when the client gives up or its
   * connection is gone. Preferred over `signal`: no `AbortSignal` is made unless a handler asks.
   */
  readonly cancellation?: Cancellation;
  /** Aborted by the transport when the request is cancelled (used when there is no `cancellation`). */
  readonly signal?: AbortSignal;
  /** Delivers a notification tied to this request (progress, log), before its response. */
  notify(notification: JsonRpcNotification): void;
  /** The verified caller, when the transport authenticated one. */
  readonly auth?: AuthInfo;
  /** A transport-bound logger (e.g. Fastify's request logger) to correlate entries. */
  readonly logger?: Logger;
  /** How handlers' asks are answered (a legacy session's live requests); an MRTR round when absent. */
  readonly asks?: AskSeam;
  /**
   * Who is calling, as the transport sees it (HTTP: the remote address); absent on stdio, whose
   * one client is the process at the other end. Rate limits key callers without a token by it.
   */
  readonly peer?: string;
  /**
   * The legacy era's session id, where the transport has one (HTTP: `Mcp-Session-Id`); the
   * pipeline and its spans (`mcp.session.id`) read it. The modern era has no sessions.
   */
  readonly sessionId?: string;
}

/**
 * The engine's per-request state: the abort signal handlers see, and the gate that keeps
 * anything from being written for the request once it answered or was cancelled.
 */
export class RequestScope {
  /** The transport's cancellation; ours (never cancelled) when it gave neither one nor a signal; `undefined` when it gave only a signal. */
  private readonly cancellation: Cancellation | undefined;
  private open = true;
  /** The last progress sent; a number field only once there is one (a double field would box a number for every request). */
  private lastProgress: number | undefined;
  /** How this request's asks are answered; set by the method's seam (see `asks/handler-asks.ts`). */
  asks: HandlerAsks | undefined;
  private logger: Logger | undefined;

  constructor(
    readonly request: JsonRpcRequest,
    readonly meta: RequestMeta,
    private readonly channel: RequestChannel,
    private readonly serverLogger: Logger,
    private readonly loggerName: string,
  ) {
    // Handlers see the transport's own signal, made only when asked for: no second controller
    // and listener per request (bench:profile counted an eager one at ~5% of a tools/call).
    this.cancellation = channel.cancellation ?? (channel.signal ? undefined : new Cancellation());
  }

  /**
   * The request's logger, made on first use: most requests never log, and a pino child per
   * request was a measurable share of a tools/call (bench/RESULTS.md).
   */
  get log(): Logger {
    if (this.logger) return this.logger;
    const base = (this.channel.logger ?? this.serverLogger).child({ rpcId: this.request.id, method: this.request.method });
    const level = this.meta.logLevel;
    this.logger = level
      ? forwardLogsToClient(base, level, (mcpLevel, data) => this.notify('notifications/message', { level: mcpLevel, logger: this.loggerName, data }))
      : base;
    return this.logger;
  }

  get signal(): AbortSignal {
    return this.cancellation ? this.cancellation.signal : this.channel.signal!;
  }

  /** True once the request was cancelled: its response must be suppressed. */
  get cancelled(): boolean {
    return this.cancellation ? this.cancellation.cancelled : this.channel.signal!.aborted;
  }

  /** Called once the response is decided: later notifications are dropped. */
  close(): void {
    this.open = false;
  }

  /** Sends a request-related notification if the request is still open. */
  notify(method: string, params: JsonObject): void {
    // Nothing more is written for a request that answered or was cancelled.
    if (!this.open || this.cancelled) return;
    this.channel.notify({ jsonrpc: '2.0', method, params });
  }

  progress(progress: number, total?: number, message?: string): void {
    const token = this.meta.progressToken;
    if (token === undefined || !this.open || this.cancelled) return;
    if (!(progress > (this.lastProgress ?? Number.NEGATIVE_INFINITY))) {
      this.log.warn({ progress, last: this.lastProgress }, 'progress must increase; notification dropped');
      return;
    }
    this.lastProgress = progress;
    const params: JsonObject = { progressToken: token, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    this.notify('notifications/progress', params);
  }

  /** The asks' seam for ctx.elicit/sample/roots/once; only the handler methods install one. */
  requireAsks(what: string): HandlerAsks {
    if (this.asks) return this.asks;
    throw new DecorumUsageError(UsageErrorCode.OUTSIDE_HANDLER, `${what} is only available in tools/call, prompts/get and resources/read handlers`);
  }

  /** The verified caller, when the transport authenticated one. */
  get auth(): AuthInfo | undefined {
    return this.channel.auth;
  }

  /** The handler-facing context. */
  context(): RequestContext {
    return new HandlerContext(this);
  }
}
