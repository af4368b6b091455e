import type { PreparedRequest } from '../engine/engine.js';
import type { RequestMeta } from '../engine/meta.js';
import { defineMethod, type MethodHandler, type ServingState } from '../methods/method.js';
import { InvalidParamsError, MethodNotFoundError } from '../errors/protocol-errors.js';
import type { LiveEvent } from '../live/events.js';
import { ResourceSight, sendSeen } from '../live/subscription.js';
import type { JsonRpcRequest } from '../protocol/types.js';

/**
 * A legacy session's `resources/subscribe` and `unsubscribe`, and which updates it is sent. They
 * run through the engine like other requests, so the resource's guards judge the caller as a read
 * does: a URI the caller may not see is answered as an unknown one (`{}`, never delivered).
 */
export class LegacySubscriptions {
  private readonly uris = new Set<string>();
  /** The latest subscriber's sight: updates are judged again when they come (a resource may appear later). */
  private sight: ResourceSight | undefined;
  private readonly handler: MethodHandler<string>;

  constructor(private readonly state: ServingState) {
    this.handler = defineMethod<string>({
      method: 'resources/subscribe',
      served: () => true,
      run: async (call) => {
        if (call.method === 'resources/unsubscribe') this.uris.delete(call.resolved);
        else {
          const sight = new ResourceSight(this.state, call);
          if (await sight.sees(call.resolved)) {
            this.uris.add(call.resolved);
            this.sight = sight;
          }
        }
        // The legacy answer is `{}`.
        return {};
      },
    });
  }

  /** The request, checked and ready for the engine to run. */
  prepare(request: JsonRpcRequest, meta: RequestMeta): PreparedRequest {
    const params = request.params ?? {};
    if (!this.state.registry.hasResources) throw new MethodNotFoundError(`Method not found: ${request.method} (this server has no resources)`);
    if (typeof params.uri !== 'string') throw new InvalidParamsError(`Invalid params: ${request.method} needs params.uri (a string)`);
    return { request, meta, params, handler: this.handler as MethodHandler<unknown>, resolved: params.uri, target: undefined };
  }

  /** Whether the session wants `event`: list changes always, updates of the URIs it subscribed to. */
  wants(event: LiveEvent): boolean {
    return event.type !== 'resources/updated' || this.uris.has(event.uri);
  }

  /** Sends `event` unless the subscriber may not see its resource. */
  deliver(event: LiveEvent, send: (event: LiveEvent) => void, open: () => boolean): void {
    sendSeen(event, this.sight, send, open);
  }
}
