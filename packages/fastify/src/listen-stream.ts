import type { ServerResponse } from 'node:http';
import type { ChannelFlow } from '@decorum/core/transport';

/** The long-lived method that is always answered with an SSE stream (L-12). */
export const LISTEN_METHOD = 'subscriptions/listen';

/**
 * Flow control of one SSE response for `subscriptions/listen`: while the socket's buffer is full
 * (`res.write` returned false and no `drain` yet) the bus queues the subscription's events, and
 * cuts it off once its queue limit is reached — a client that stops reading costs bounded memory.
 */
export function sseFlow(res: ServerResponse): ChannelFlow {
  return {
    needsDrain: () => res.writableNeedDrain,
    onDrain: (listener) => void res.once('drain', listener),
  };
}
