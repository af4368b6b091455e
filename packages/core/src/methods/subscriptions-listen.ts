import { defineMethod } from '../engine/method.js';
import { InternalError } from '../errors/protocol-errors.js';
import { notificationMethod } from '../live/events.js';
import { honour, readFilter, type FlowChannel, type HonouredFilter } from '../live/subscription.js';
import { META } from '../protocol/meta-keys.js';
import type { JsonObject } from '../protocol/types.js';

/**
 * `subscriptions/listen` (§13): a long-lived request. It acknowledges the honoured filter first,
 * then forwards every change it opted into, each tagged with the listen id (type preserved), until
 * the client cancels (no response: the engine suppresses it), the server shuts down (the closing
 * result), or the client stops reading (an error, instead of buffering without bound).
 */
export const subscriptionsListenMethod = defineMethod<HonouredFilter>({
  method: 'subscriptions/listen',
  // Subscribe-and-notify is a core pattern: served even when nothing can change (L-02).
  served: () => true,
  resolve: (params, state) => honour(readFilter(params), state.registry),
  async run({ scope, target, state, channel }) {
    const tag = { [META.subscriptionId]: scope.request.id };
    scope.notify('notifications/subscriptions/acknowledged', { notifications: target.ack as JsonObject, _meta: tag });
    if (scope.cancelled) return { resultType: 'complete', _meta: tag };
    const flow = (channel as FlowChannel).flow;
    const subscription = state.live.bus.subscribe({
      wants: (event) => target.wants(event),
      deliver(event) {
        const params: JsonObject = event.type === 'resources/updated' ? { uri: event.uri, _meta: tag } : { _meta: tag };
        scope.notify(notificationMethod(event), params);
        return flow ? !flow.needsDrain() : true;
      },
      onDrain: (listener) => (flow ? flow.onDrain(listener) : listener()),
    });
    const onAbort = () => subscription.close();
    scope.signal.addEventListener('abort', onAbort, { once: true });
    const end = await subscription.ended;
    scope.signal.removeEventListener('abort', onAbort);
    if (end.reason === 'overflow') {
      scope.log.warn({ queued: subscription.queued }, end.error.message);
      throw new InternalError('Subscription closed: the client did not read its notifications; listen again');
    }
    return { resultType: 'complete', _meta: tag };
  },
});
