import type { Writable } from 'node:stream';
import type { JsonRpcNotification, RequestId } from '@decorum/core';
import type { ChannelFlow } from '@decorum/core/transport';

/** The one request that stays open until the server or the client ends it. */
export const LISTEN_METHOD = 'subscriptions/listen';

/** Flow control of stdout for `subscriptions/listen`: a client that stops reading gets cut off. */
export function stdoutFlow(output: Writable): ChannelFlow {
  return {
    needsDrain: () => output.writableNeedDrain,
    onDrain: (listener) => void output.once('drain', listener),
  };
}

/**
 * After the server itself ended a listen (shutdown: the closing result; a client that stopped
 * reading: an error), stdio also sends `notifications/cancelled` for the listen id, as the
 * cancellation page requires (DIGEST §18.2: result first, then the cancellation).
 */
export function listenTeardown(id: RequestId): JsonRpcNotification {
  return { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'The server ended the subscription' } };
}
