import { randomUUID } from 'node:crypto';
import { encodeSafely, type EngineResponse, type UnserializableListener } from '@decorum/core/transport';
import type { JsonRpcNotification } from '@decorum/core';

// Stands in for a bigint while JSON.stringify runs; random per process, so no string a message holds can spell it.
const MARK = `bigint-${randomUUID()}:`;
const MARKED = new RegExp(`"${MARK}(-?\\d+)"`, 'g');

/**
 * One message as JSON with every `bigint` in it written as its exact digits. For the messages of a
 * `subscriptions/listen` whose id is beyond 2^53: they carry that id in `_meta` and in the
 * teardown's `requestId`, where `encodeMessage` (which keeps a bigint top-level `id` only) cannot
 * write it. Anything else JSON cannot hold (a cycle) goes the usual way: `encodeSafely`.
 */
export function encodeExactly(message: EngineResponse | JsonRpcNotification, onError: UnserializableListener): string | undefined {
  try {
    return JSON.stringify(message, (_key, value: unknown) => (typeof value === 'bigint' ? `${MARK}${value}` : value)).replace(MARKED, '$1');
  } catch {
    return encodeSafely(message, onError);
  }
}
