import { defineMethod } from './method.js';
import { isThenable } from '../async/thenable.js';
import { InternalError } from '../errors/protocol-errors.js';
import { notificationMethod, type LiveEvent } from '../live/events.js';
import { honour, readFilter, ResourceSight, seenFilter, sendSeen, type FlowChannel, type SubscriptionFilter } from '../live/subscription.js';
import { META } from '../protocol/meta-keys.js';
import { extensionEventParams, grantListens, isExtensionEvent } from '../live/extension-listens.js';
import type { JsonObject } from '../protocol/types.js';

/**
 * `subscriptions/listen` (§13): a long-lived request. It acknowledges the honoured filter first,
 * then forwards every change it opted into, each tagged with the listen id (type preserved), until
 * the client cancels (no response: the engine suppresses it), the server shuts down (the closing
 * result), or the client stops reading (an error, instead of buffering without bound). Resources
 * the caller's guards refuse are neither acknowledged nor delivered (see ResourceSight).
 */
export const subscriptionsListenMethod = defineMethod<SubscriptionFilter>({
  method: 'subscriptions/listen',
  // Subscribe-and-notify is a core pattern: served even when nothing can change (L-02).
  served: () => true,
  resolve: (params) => readFilter(params),
  async run(call) {
    const { state, channel } = call;
    const sight = new ResourceSight(state, call);
    const seen = seenFilter(call.resolved, sight);
    const honoured = honour(isThenable(seen) ? await seen : seen, state.registry);
    // The extensions' fields (Tasks: taskIds), granted by each; absent on a server without listen filters.
    const listens = state.extensions?.listens;
    const granted = listens && listens.size > 0 ? await grantListens(call.params.notifications as JsonObject, listens, call) : undefined;
    const tag = { [META.subscriptionId]: call.request.id };
    call.notify('notifications/subscriptions/acknowledged', { notifications: { ...(honoured.ack as JsonObject), ...granted?.ack }, _meta: tag });
    if (call.cancelled) return { _meta: tag };
    const flow = (channel as FlowChannel).flow;
    let open = true;
    const send = (event: LiveEvent): void => {
      const params: JsonObject =
        event.type === 'resources/updated' ? { uri: event.uri, _meta: tag } : isExtensionEvent(event) ? extensionEventParams(event, tag) : { _meta: tag };
      call.notify(notificationMethod(event), params);
    };
    const subscription = state.live.bus.subscribe({
      wants: (event) => (isExtensionEvent(event) ? granted !== undefined && granted.wants(event) : honoured.wants(event)),
      deliver(event) {
        sendSeen(event, sight, send, () => open);
        return flow ? !flow.needsDrain() : true;
      },
      onDrain: (listener) => (flow ? flow.onDrain(listener) : listener()),
    });
    const onAbort = () => subscription.close();
    call.signal.addEventListener('abort', onAbort, { once: true });
    const end = await subscription.ended;
    open = false;
    call.signal.removeEventListener('abort', onAbort);
    if (end.reason === 'overflow') {
      call.log.warn({ queued: subscription.queued }, end.error.message);
      throw new InternalError('Subscription closed: the client did not read its notifications; listen again');
    }
    return { _meta: tag };
  },
});
