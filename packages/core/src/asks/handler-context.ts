import type { Logger } from 'pino';
import type { AuthInfo, ClientView, RequestContext } from '../context/request-context.js';
import type { CreateMessageParams, CreateMessageResult, ElicitParams, ElicitResult, ElicitValue, InputOptions, Root } from './ask-types.js';
import type { HandlerAsks } from './handler-asks.js';
import { DecorumUsageError, UsageErrorCode } from '../errors/usage-error.js';
import type { JsonObject, JsonRpcRequest, RequestId } from '../protocol/types.js';
import type { RequestMeta } from '../era/request-meta.js';

/** What a `ctx` reads of its request's call (`request-call.ts`). */
export interface ContextSource {
  readonly request: JsonRpcRequest;
  readonly requestMeta: RequestMeta;
  readonly signal: AbortSignal;
  readonly log: Logger;
  readonly auth: AuthInfo | undefined;
  progress(progress: number, total?: number, message?: string): void;
  /** What an extension gave a derived call (`DerivedCallOptions.data`); absent on a request's own call. */
  readonly data?: ReadonlyMap<symbol, unknown>;
}

const NO_EXTENSIONS: Readonly<Record<string, JsonObject>> = Object.freeze({});

/**
 * The `ctx` a handler receives: a view of its request's call, made with the asks that answer its
 * `elicit`/`sample`/`roots`/`once` (none outside a handler). A class rather than an object literal
 * so that a request allocates one small object, not a closure per member; `signal` and `log` are
 * getters, so the abort signal and the request logger are made only when read.
 */
export class HandlerContext implements RequestContext {
  private clientView: ClientView | undefined;

  constructor(
    private readonly call: ContextSource,
    private readonly asks: HandlerAsks | undefined,
  ) {}

  get requestId(): RequestId {
    return this.call.request.id;
  }

  get method(): string {
    return this.call.request.method;
  }

  get signal(): AbortSignal {
    return this.call.signal;
  }

  get client(): ClientView {
    const meta = this.call.requestMeta;
    const capabilities = meta.clientCapabilities;
    return (this.clientView ??= {
      info: meta.clientInfo,
      capabilities,
      protocolVersion: meta.protocolVersion,
      extensions: capabilities.extensions ?? NO_EXTENSIONS,
    });
  }

  get log(): Logger {
    return this.call.log;
  }

  get auth(): AuthInfo | undefined {
    return this.call.auth;
  }

  progress(progress: number, total?: number, message?: string): void {
    this.call.progress(progress, total, message);
  }

  /** The value an extension gave this handler's derived call under `key` (read through `extensionData`). */
  extensionData(key: symbol): unknown {
    return this.call.data?.get(key);
  }

  elicit<Content = Record<string, ElicitValue>>(params: ElicitParams, options?: InputOptions & { optional?: false }): Promise<ElicitResult<Content>>;
  elicit<Content = Record<string, ElicitValue>>(params: ElicitParams, options: InputOptions & { optional: true }): Promise<ElicitResult<Content> | undefined>;
  elicit(params: ElicitParams, options?: InputOptions & { optional?: boolean }): Promise<ElicitResult | undefined> {
    return this.requireAsks('ctx.elicit').elicit(params, options as InputOptions & { optional: true });
  }

  sample(params: CreateMessageParams, options?: InputOptions & { optional?: false }): Promise<CreateMessageResult>;
  sample(params: CreateMessageParams, options: InputOptions & { optional: true }): Promise<CreateMessageResult | undefined>;
  sample(params: CreateMessageParams, options?: InputOptions & { optional?: boolean }): Promise<CreateMessageResult | undefined> {
    return this.requireAsks('ctx.sample').sample(params, options as InputOptions & { optional: true });
  }

  roots(options?: InputOptions & { optional?: false }): Promise<Root[]>;
  roots(options: InputOptions & { optional: true }): Promise<Root[] | undefined>;
  roots(options?: InputOptions & { optional?: boolean }): Promise<Root[] | undefined> {
    return this.requireAsks('ctx.roots').roots(options as InputOptions & { optional: true });
  }

  once<T>(name: string, fn: () => T | Promise<T>): Promise<T> {
    return this.requireAsks('ctx.once').once(name, fn);
  }

  /** The asks' seam for ctx.elicit/sample/roots/once; only the handler methods give one. */
  private requireAsks(what: string): HandlerAsks {
    if (this.asks) return this.asks;
    throw new DecorumUsageError(UsageErrorCode.OUTSIDE_HANDLER, `${what} is only available in tools/call, prompts/get and resources/read handlers`);
  }
}
