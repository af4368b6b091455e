import type { RequestContext } from '../context/request-context.js';
import type { RequestChannel, RequestScope } from '../engine/request-scope.js';
import type { AuthInfo } from '../context/request-context.js';
import type { JsonObject, RequestId } from '../protocol/types.js';
import type { CallDescription } from './call.js';

/**
 * A request the engine runs, described for the pipeline: a view of its scope and channel, nothing
 * copied. Legacy sessions run through the same engine, so their requests are described here too
 * (with the session's revision, and its id when the transport has one).
 */
export class ModernCall implements CallDescription {
  constructor(
    private readonly scope: RequestScope,
    readonly params: JsonObject,
    readonly resolved: unknown,
    private readonly channel: RequestChannel,
  ) {}

  get protocolVersion(): string {
    return this.scope.meta.protocolVersion;
  }

  get method(): string {
    return this.scope.request.method;
  }

  get id(): RequestId {
    return this.scope.request.id;
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
