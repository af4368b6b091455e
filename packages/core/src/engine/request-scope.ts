import type { Logger } from 'pino';
import type { AuthInfo, RequestContext } from '../context/request-context.js';
import { forwardLogsToClient } from '../logging/mcp-log-forwarding.js';
import type { JsonObject, JsonRpcNotification, JsonRpcRequest } from '../protocol/types.js';
import type { RequestMeta } from './meta.js';
import { bindingOf } from '../mrtr/binding.js';
import { InputRound, mrtrConfig, type MrtrConfig } from '../mrtr/input-round.js';

/**
 * How a transport hands one request to the engine: where request-scoped notifications go,
 * and the signal that says the client gave up. This is the whole transport/data-layer seam.
 */
export interface RequestChannel {
  /** Aborted by the transport when the request is cancelled or its connection is gone. */
  readonly signal?: AbortSignal;
  /** Delivers a notification tied to this request (progress, log), before its response. */
  notify(notification: JsonRpcNotification): void;
  /** The verified caller, when the transport authenticated one. */
  readonly auth?: AuthInfo;
  /** A transport-bound logger (e.g. Fastify's request logger) to correlate entries. */
  readonly logger?: Logger;
}

/**
 * The engine's per-request state: the abort signal handlers see, and the gate that keeps
 * anything from being written for the request once it answered or was cancelled.
 */
export class RequestScope {
  /** The transport's signal, or ours when the transport gave none (it then never aborts). */
  private readonly abortSignal: AbortSignal;
  private open = true;
  private lastProgress = Number.NEGATIVE_INFINITY;
  private round: InputRound | undefined;
  private logger: Logger | undefined;

  constructor(
    readonly request: JsonRpcRequest,
    readonly meta: RequestMeta,
    private readonly channel: RequestChannel,
    private readonly serverLogger: Logger,
    private readonly loggerName: string,
  ) {
    // Handlers see the transport's own signal: no second controller and listener per request
    // (bench:profile counted them at ~5% of a tools/call).
    this.abortSignal = channel.signal ?? new AbortController().signal;
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
    return this.abortSignal;
  }

  /** True once the request was cancelled: its response must be suppressed. */
  get cancelled(): boolean {
    return this.abortSignal.aborted;
  }

  /** Called once the response is decided: later notifications are dropped. */
  close(): void {
    this.open = false;
  }

  /** Sends a request-related notification if the request is still open. */
  notify(method: string, params: JsonObject): void {
    // Nothing more is written for a request that answered or was cancelled.
    if (!this.open || this.abortSignal.aborted) return;
    this.channel.notify({ jsonrpc: '2.0', method, params });
  }

  progress(progress: number, total?: number, message?: string): void {
    const token = this.meta.progressToken;
    if (token === undefined || !this.open || this.abortSignal.aborted) return;
    if (!(progress > this.lastProgress)) {
      this.log.warn({ progress, last: this.lastProgress }, 'progress must increase; notification dropped');
      return;
    }
    this.lastProgress = progress;
    const params: JsonObject = { progressToken: token, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    this.notify('notifications/progress', params);
  }

  /**
   * Opens this request's MRTR round (tools/call, prompts/get, resources/read only) before the
   * handler runs: its `requestState` is opened and checked against the request, so a tampered,
   * expired or re-bound state is -32602 and the handler never runs.
   */
  openInputRound(config: MrtrConfig | undefined, name: string, args: unknown): InputRound {
    const binding = bindingOf(this.request.method, name, args, this.channel.auth?.principal);
    this.round = new InputRound(config ?? defaultMrtrConfig(this.log), binding, this.meta.clientCapabilities, this.request.params ?? {});
    return this.round;
  }

  /** The round opened by {@link openInputRound}. */
  inputRound(): InputRound {
    if (!this.round) throw new Error(`${this.request.method} has no MRTR round`);
    return this.round;
  }

  private requireRound(what: string): InputRound {
    if (!this.round) throw new Error(`${what} is only available in tools/call, prompts/get and resources/read handlers (MRTR)`);
    return this.round;
  }

  /** The handler-facing context. */
  context(): RequestContext {
    const scope = this;
    return {
      requestId: this.request.id,
      method: this.request.method,
      signal: this.signal,
      client: { info: this.meta.clientInfo, capabilities: this.meta.clientCapabilities, protocolVersion: this.meta.protocolVersion },
      get log() {
        return scope.log;
      },
      auth: this.channel.auth,
      progress(progress: number, total?: number, message?: string) {
        scope.progress(progress, total, message);
      },
      elicit: ((params, options) => scope.requireRound('ctx.elicit').elicit(params, options)) as RequestContext['elicit'],
      sample: ((params, options) => scope.requireRound('ctx.sample').sample(params, options)) as RequestContext['sample'],
      roots: ((options) => scope.requireRound('ctx.roots').roots(options)) as RequestContext['roots'],
      once: (name, fn) => scope.requireRound('ctx.once').once(name, fn),
    };
  }
}

let fallbackConfig: MrtrConfig | undefined;
/** For servers whose state carries no MRTR settings (built outside createServer). */
function defaultMrtrConfig(log: Logger): MrtrConfig {
  return (fallbackConfig ??= mrtrConfig({}, log));
}
