import type { Logger } from 'pino';
import type { AuthInfo, RequestContext } from '../context/request-context.js';
import type { AskSeam, HandlerAsks } from '../asks/handler-asks.js';
import { forwardLogsToClient } from '../logging/mcp-log-forwarding.js';
import { PipelineCall } from '../pipeline/call.js';
import type { CallTarget } from '../registry/targets.js';
import type { CacheHints, ClientCapabilities, JsonObject, JsonRpcNotification, JsonRpcRequest, RequestId } from '../protocol/types.js';
import { Cancellation } from './cancellation.js';
import { HandlerContext } from '../asks/handler-context.js';
import type { RequestMeta } from '../era/request-meta.js';
import type { MethodCall, MethodHandler, ServingState } from '../methods/method.js';
import type { RequestChannel } from './request-channel.js';

/**
 * The one object of one request, made where the engine starts answering it: the method's call
 * (its target resolved as it is made) and the pipeline's call, and the owner of the request's
 * cancellation, log and progress. Legacy sessions run through the same engine, so their requests
 * are these too (with the session's revision, and its id when the transport has one). Everything
 * costly is made on first use: the logger, the `AbortSignal`, the context middleware reads.
 */
export class RequestCall<Resolved = unknown> extends PipelineCall implements MethodCall<Resolved> {
  /** The transport's cancellation; ours (never cancelled) when it gave neither one nor a signal; `undefined` when it gave only a signal. */
  private readonly cancellation: Cancellation | undefined;
  private open = true;
  /** The last progress sent; a number field only once there is one (a double field would box a number for every request). */
  private lastProgress: number | undefined;
  private logger: Logger | undefined;
  private ctxMade: RequestContext | undefined;
  /** The cache hints the method chose for its result, for the codec (see MethodCall). */
  cacheHints: CacheHints | undefined = undefined;

  readonly params: JsonObject;
  /** What the method's `resolve` read from the params (a tool target, a subscription filter). */
  readonly resolved: Resolved;
  /** The tool, prompt or resource the request uses (`undefined` for lists and discovery). */
  readonly target: CallTarget | undefined;

  constructor(
    readonly request: JsonRpcRequest,
    readonly requestMeta: RequestMeta,
    /** The method: its `resolve` gives the call its target here, its `run` ends the pipeline's chain. */
    readonly handler: MethodHandler<Resolved>,
    readonly state: ServingState,
    readonly channel: RequestChannel,
    /** How the handler's asks are answered: a legacy session's requests to its client; an MRTR round when absent. */
    readonly asks: AskSeam | undefined,
  ) {
    super(false);
    // Handlers see the transport's own signal, made only when asked for: no second controller
    // and listener per request.
    this.cancellation = channel.cancellation ?? (channel.signal ? undefined : new Cancellation());
    const params = request.params ?? {};
    this.params = params;
    this.resolved = handler.resolve ? handler.resolve(params, state) : (undefined as Resolved);
    this.target = handler.target?.(this.resolved);
  }

  get protocolVersion(): string {
    return this.requestMeta.protocolVersion;
  }

  get method(): string {
    return this.request.method;
  }

  get id(): RequestId {
    return this.request.id;
  }

  get auth(): AuthInfo | undefined {
    return this.channel.auth;
  }

  get peer(): string | undefined {
    return this.channel.peer;
  }

  get sessionId(): string | undefined {
    return this.channel.sessionId;
  }

  /** What the client declared it can take (asks are checked against it). */
  get clientCapabilities(): ClientCapabilities {
    return this.requestMeta.clientCapabilities;
  }

  /** The request's logger, made on first use: most requests never log. */
  get log(): Logger {
    if (this.logger) return this.logger;
    const { state, request } = this;
    const base = (this.channel.logger ?? state.logger).child({ rpcId: request.id, method: request.method });
    const level = this.requestMeta.logLevel;
    this.logger = level
      ? forwardLogsToClient(base, level, (mcpLevel, data) => this.notify('notifications/message', { level: mcpLevel, logger: state.info.name, data }))
      : base;
    return this.logger;
  }

  get signal(): AbortSignal {
    return this.cancellation ? this.cancellation.signal : this.channel.signal!;
  }

  get cancelled(): boolean {
    return this.cancellation ? this.cancellation.cancelled : this.channel.signal!.aborted;
  }

  /** Called once the response is decided: later notifications are dropped. */
  close(): void {
    this.open = false;
  }

  notify(method: string, params: JsonObject): void {
    // Nothing more is written for a request that answered or was cancelled.
    if (!this.open || this.cancelled) return;
    let notification: JsonRpcNotification | undefined = { jsonrpc: '2.0', method, params };
    // Extensions' outbound steps, when one has any: each may change or drop it.
    const outbound = this.state.extensions?.outbound;
    if (outbound !== undefined && (notification = outbound(notification, this)) === undefined) return;
    this.channel.notify(this.requestMeta.codec.notification(notification));
  }

  /** `notifications/progress` for the request's `progressToken`, if it sent one; progress must increase. */
  progress(progress: number, total?: number, message?: string): void {
    const token = this.requestMeta.progressToken;
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

  /** The context middleware and guards read: no asks (they belong to the handler's run). */
  get ctx(): RequestContext {
    return (this.ctxMade ??= new HandlerContext(this, undefined));
  }

  context(asks?: HandlerAsks): RequestContext {
    return new HandlerContext(this, asks);
  }
}
