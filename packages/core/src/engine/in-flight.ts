import type { RequestId } from '../protocol/types.js';

/** Entries kept before the first sweep of finished ones. */
const FIRST_SWEEP = 1024;

/**
 * The requests being served, by id. `"1"` and `1` are different requests; two maps keep them
 * apart by the id itself, instead of building a `typeof:id` string key for every request.
 *
 * A finished request's entry is emptied (its value set to `undefined`), not deleted: a `Map`
 * shrinks its table once it is a quarter full, so the answers to a burst of requests made it
 * shrink table after table, and the next burst grow it again — each a call into the runtime and a
 * new table, ~7 % of a stdio call at 64 in flight. Emptied entries are swept once they outnumber
 * the live ones four to one (past 1,024 entries): a copy of the live ones, rarely. Used by every
 * transport that cancels by id (stdio, legacy sessions).
 */
export class InFlight<T> {
  private byString = new Map<string, T | undefined>();
  private byNumber = new Map<number | bigint, T | undefined>();
  private live = 0;

  /** How many requests are in flight. */
  get size(): number {
    return this.live;
  }

  /** Whether a request with this id is in flight. */
  has(id: RequestId): boolean {
    return this.mapOf(id).get(id) !== undefined;
  }

  /** The value recorded for a request in flight; `undefined` when none is. */
  get(id: RequestId): T | undefined {
    return this.mapOf(id).get(id);
  }

  /** Records a request; `value` is never `undefined` (that marks a finished one). */
  set(id: RequestId, value: T): void {
    const map = this.mapOf(id);
    if (map.get(id) === undefined) this.live++;
    map.set(id, value);
    if (map.size > FIRST_SWEEP && map.size > 4 * this.live) this.sweep();
  }

  /** The request is done (an id not in flight is ignored). */
  delete(id: RequestId): void {
    const map = this.mapOf(id);
    if (map.get(id) === undefined) return;
    map.set(id, undefined);
    this.live--;
  }

  /** Every entry with its id (for answering what is still running). */
  entries(): Array<[RequestId, T]> {
    const all: Array<[RequestId, T | undefined]> = [...this.byString.entries(), ...this.byNumber.entries()];
    return all.filter((entry): entry is [RequestId, T] => entry[1] !== undefined);
  }

  /** Every entry, then none. */
  drain(): T[] {
    const all = this.entries().map(([, value]) => value);
    this.byString = new Map();
    this.byNumber = new Map();
    this.live = 0;
    return all;
  }

  /** Keeps the live entries only, in a map of their own (a new, right-sized table). */
  private sweep(): void {
    this.byString = liveOnly(this.byString);
    this.byNumber = liveOnly(this.byNumber);
  }

  private mapOf(id: RequestId): Map<RequestId, T | undefined> {
    return (typeof id === 'string' ? this.byString : this.byNumber) as Map<RequestId, T | undefined>;
  }
}

function liveOnly<K, T>(map: Map<K, T | undefined>): Map<K, T | undefined> {
  const live = new Map<K, T | undefined>();
  for (const [key, value] of map) if (value !== undefined) live.set(key, value);
  return live;
}
