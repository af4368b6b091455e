import type { Logger } from 'pino';
import type { AuthInfo, ClientView, RequestContext } from '../context/request-context.js';
import type { CreateMessageParams, CreateMessageResult, ElicitParams, ElicitResult, ElicitValue, InputOptions, Root } from '../mrtr/input-types.js';
import type { RequestId } from '../protocol/types.js';
import type { RequestScope } from './request-scope.js';

/**
 * The `ctx` a handler receives: a view of its {@link RequestScope}. A class rather than an object
 * literal so that a request allocates one small object, not a closure per member; `signal` and
 * `log` are getters, so the abort signal and the request logger are made only when read.
 */
export class HandlerContext implements RequestContext {
  private clientView: ClientView | undefined;

  constructor(private readonly scope: RequestScope) {}

  get requestId(): RequestId {
    return this.scope.request.id;
  }

  get method(): string {
    return this.scope.request.method;
  }

  get signal(): AbortSignal {
    return this.scope.signal;
  }

  get client(): ClientView {
    const { meta } = this.scope;
    return (this.clientView ??= { info: meta.clientInfo, capabilities: meta.clientCapabilities, protocolVersion: meta.protocolVersion });
  }

  get log(): Logger {
    return this.scope.log;
  }

  get auth(): AuthInfo | undefined {
    return this.scope.auth;
  }

  progress(progress: number, total?: number, message?: string): void {
    this.scope.progress(progress, total, message);
  }

  elicit<Content = Record<string, ElicitValue>>(params: ElicitParams, options?: InputOptions & { optional?: false }): Promise<ElicitResult<Content>>;
  elicit<Content = Record<string, ElicitValue>>(params: ElicitParams, options: InputOptions & { optional: true }): Promise<ElicitResult<Content> | undefined>;
  elicit(params: ElicitParams, options?: InputOptions & { optional?: boolean }): Promise<ElicitResult | undefined> {
    return this.scope.requireAsks('ctx.elicit').elicit(params, options as InputOptions & { optional: true });
  }

  sample(params: CreateMessageParams, options?: InputOptions & { optional?: false }): Promise<CreateMessageResult>;
  sample(params: CreateMessageParams, options: InputOptions & { optional: true }): Promise<CreateMessageResult | undefined>;
  sample(params: CreateMessageParams, options?: InputOptions & { optional?: boolean }): Promise<CreateMessageResult | undefined> {
    return this.scope.requireAsks('ctx.sample').sample(params, options as InputOptions & { optional: true });
  }

  roots(options?: InputOptions & { optional?: false }): Promise<Root[]>;
  roots(options: InputOptions & { optional: true }): Promise<Root[] | undefined>;
  roots(options?: InputOptions & { optional?: boolean }): Promise<Root[] | undefined> {
    return this.scope.requireAsks('ctx.roots').roots(options as InputOptions & { optional: true });
  }

  once<T>(name: string, fn: () => T | Promise<T>): Promise<T> {
    return this.scope.requireAsks('ctx.once').once(name, fn);
  }
}
