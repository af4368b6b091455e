import { randomUUID } from 'node:crypto';

// Stands in for a bigint while JSON.stringify runs; random per process, so no string a message holds can spell it.
const MARK = `bigint-${randomUUID()}:`;
const MARKED = new RegExp(`"${MARK}(-?\\d+)"`, 'g');

/**
 * A message as JSON with every `bigint` in it written as its exact digits; `undefined` when JSON
 * cannot hold it for another reason (a cycle). For the messages of a `subscriptions/listen` whose
 * id is beyond 2^53: they carry that id in `_meta` and in a teardown's `requestId`, not only as
 * the top-level `id` that the usual encoding writes exactly.
 */
export function exactIntegersJson(message: unknown): string | undefined {
  try {
    return JSON.stringify(message, (_key, value: unknown) => (typeof value === 'bigint' ? `${MARK}${value}` : value)).replace(MARKED, '$1');
  } catch {
    return undefined;
  }
}
