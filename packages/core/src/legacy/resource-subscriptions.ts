import { defineMethod, type MethodHandler, type ServingState } from '../methods/method.js';
import { InvalidParamsError, MethodNotFoundError } from '../errors/protocol-errors.js';
import type { LiveEvent } from '../live/events.js';
import { ResourceSight, sendSeen } from '../live/subscription.js';

/**
 * A legacy session's `resources/subscribe` and `unsubscribe`, and which updates it is sent. They
 * run through the engine like other requests, so the resource's guards judge the caller as a read
 * does: a URI the caller may not see is answered as an unknown one (`{}`, never delivered).
 */
export class LegacySubscriptions {
  private readonly uris = new Set<string>();
  /** The latest subscriber's sight: updates are judged again when they come (a resource may appear later). */
  private sight: ResourceSight | undefined;
  /** The session's own method for both requests: the engine runs it as any other (guards, pipeline, codec). */
  readonly method: MethodHandler<unknown>;

  constructor(private readonly state: ServingState) {
    this.method = defineMethod<string>({
      method: 'resources/subscribe',
      served: () => true,
      resolve: (params, state) => {
        if (!state.registry.hasResources) throw new MethodNotFoundError(`Method not found: resources/subscribe and unsubscribe (this server has no resources)`);
        if (typeof params.uri !== 'string') throw new InvalidParamsError('Invalid params: resources/subscribe and unsubscribe need params.uri (a string)');
        return params.uri;
      },
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
    }) as MethodHandler<unknown>;
  }

  /** Whether the session wants `event`: list changes always, updates of the URIs it subscribed to; never an extension's listen event. */
  wants(event: LiveEvent): boolean {
    if (event.type === 'extension') return false;
    return event.type !== 'resources/updated' || this.uris.has(event.uri);
  }

  /** Sends `event` unless the subscriber may not see its resource. */
  deliver(event: LiveEvent, send: (event: LiveEvent) => void, open: () => boolean): void {
    sendSeen(event, this.sight, send, open);
  }
}
