import type { Logger } from 'pino';
import type { AuthInfo, RequestContext } from '../context/request-context.js';
import type { AskSeam, HandlerAsks } from '../asks/handler-asks.js';
import { HandlerContext } from '../asks/handler-context.js';
import type { DerivedCallOptions } from './extension.js';
import { forwardLogsToClient } from '../logging/mcp-log-forwarding.js';
import type { MethodCall, MethodHandler, ServingState } from '../methods/method.js';
import { PipelineCall } from '../pipeline/call.js';
import type { CacheHints, ClientCapabilities, JsonObject, JsonRpcRequest, RequestId } from '../protocol/types.js';
import type { CallTarget } from '../registry/targets.js';
import type { RequestMeta } from '../era/request-meta.js';
import type { RequestChannel } from '../engine/request-channel.js';

/**
 * A call derived from a request's call by an extension's `around` step (Tasks runs a tool's
 * handler on one): the same request, meta and target, with its own cancellation, asks, progress
 * and notifications, and data the handler reads with `extensionData`. It may outlive the request:
 * the engine closes only the original call when the request answers.
 */
export class DerivedCall<Resolved = unknown> extends PipelineCall implements MethodCall<Resolved> {
  private logger: Logger | undefined;
  private ctxMade: RequestContext | undefined;
  cacheHints: CacheHints | undefined = undefined;

  constructor(
    private readonly origin: MethodCall<Resolved> & { readonly handler?: MethodHandler<Resolved> },
    private readonly options: DerivedCallOptions,
  ) {
    super(false);
  }

  get request(): JsonRpcRequest {
    return this.origin.request;
  }

  get requestMeta(): RequestMeta {
    return this.origin.requestMeta;
  }

  get resolved(): Resolved {
    return this.origin.resolved;
  }

  get state(): ServingState {
    return this.origin.state;
  }

  get channel(): RequestChannel {
    return this.origin.channel;
  }

  get protocolVersion(): string {
    return this.origin.protocolVersion;
  }

  get method(): string {
    return this.origin.method;
  }

  get id(): RequestId {
    return this.origin.id;
  }

  get params(): JsonObject {
    return this.origin.params;
  }

  get target(): CallTarget | undefined {
    return this.origin.target;
  }

  get auth(): AuthInfo | undefined {
    return this.origin.auth;
  }

  get peer(): string | undefined {
    return this.origin.peer;
  }

  get sessionId(): string | undefined {
    return this.origin.sessionId;
  }

  get clientCapabilities(): ClientCapabilities {
    return this.origin.clientCapabilities;
  }

  get asks(): AskSeam | undefined {
    return this.options.asks ?? this.origin.asks;
  }

  get signal(): AbortSignal {
    return this.options.signal ?? this.origin.signal;
  }

  get cancelled(): boolean {
    return this.options.signal ? this.options.signal.aborted : this.origin.cancelled;
  }

  /** Values the extension gave the derived call (`extensionData`). */
  get data(): ReadonlyMap<symbol, unknown> | undefined {
    return this.options.data;
  }

  /** The server log (not the request's, which closes with it), forwarding to `notify` when the request asked for a log level. */
  get log(): Logger {
    if (this.logger) return this.logger;
    const { state, request } = this;
    const base = (this.channel.logger ?? state.logger).child({ rpcId: request.id, method: request.method, derived: true });
    const level = this.requestMeta.logLevel;
    const notify = this.options.notify;
    this.logger =
      level && notify
        ? forwardLogsToClient(base, level, (mcpLevel, data) => notify('notifications/message', { level: mcpLevel, logger: state.info.name, data }))
        : base;
    return this.logger;
  }

  notify(method: string, params: JsonObject): void {
    this.options.notify?.(method, params);
  }

  progress(progress: number, total?: number, message?: string): void {
    if (this.options.progress) this.options.progress(progress, total, message);
    else this.origin.ctx.progress(progress, total, message);
  }

  get ctx(): RequestContext {
    return (this.ctxMade ??= new HandlerContext(this, undefined));
  }

  context(asks?: HandlerAsks): RequestContext {
    return new HandlerContext(this, asks);
  }
}
