import type { AuthInfo, RequestContext } from '../context/request-context.js';
import type { CallResult } from '../pipeline/middleware.js';
import type { JsonObject, RequestId } from '../protocol/types.js';
import type { MethodCall, MethodHandler, ServingState } from './method.js';
import type { RequestChannel, RequestScope } from './request-scope.js';

/**
 * One request the engine runs, after its checks: what the method's handler gets, what the pipeline
 * describes it by, and the pipeline's terminal (which runs the handler). One object for the three,
 * and a view of the scope and channel with nothing copied, because one is made for every request.
 * Legacy sessions run through the same engine, so their requests are these too (with the session's
 * revision, and its id when the transport has one).
 */
export class EngineCall implements MethodCall<unknown> {
  constructor(
    readonly scope: RequestScope,
    readonly params: JsonObject,
    readonly target: unknown,
    readonly state: ServingState,
    readonly channel: RequestChannel,
    private readonly handler: MethodHandler<unknown>,
  ) {}

  /** Runs the method's handler: the end of the pipeline's chain. */
  run(): Promise<CallResult> | CallResult {
    return this.handler.run(this);
  }

  get protocolVersion(): string {
    return this.scope.meta.protocolVersion;
  }

  get method(): string {
    return this.scope.request.method;
  }

  get id(): RequestId {
    return this.scope.request.id;
  }

  get resolved(): unknown {
    return this.target;
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

  context(): RequestContext {
    return this.scope.context();
  }
}
