/** A JSON-RPC request id as the transports read it (bigint: an integer beyond 2^53). */
export type RequestId = string | number | bigint;

/** Entries kept before the first sweep of finished ones. */
const FIRST_SWEEP = 1024;

/**
 * The requests being served, by id. `"1"` and `1` are different requests, and different keys of
 * one `Map` (keys compare by type and value), so the id itself is the key.
 *
 * A finished request's entry is emptied (its value set to `undefined`), not deleted: a `Map`
 * shrinks its table once it is a quarter full, so the answers to a burst of requests made it
 * shrink table after table, and the next burst grow it again — each a call into the runtime and a
 * new table (docs/perf-notes.md, "Figures behind source comments"). Emptied entries are swept once they outnumber
 * the live ones four to one (past 1,024 entries): a copy of the live ones, rarely. Used by every
 * transport that cancels by id (stdio, legacy sessions).
 */
export class InFlight<T> {
  private byId = new Map<RequestId, T | undefined>();
  private live = 0;

  /** How many requests are in flight. */
  get size(): number {
    return this.live;
  }

  /** Whether a request with this id is in flight. */
  has(id: RequestId): boolean {
    return this.byId.get(id) !== undefined;
  }

  /** The value recorded for a request in flight; `undefined` when none is. */
  get(id: RequestId): T | undefined {
    return this.byId.get(id);
  }

  /** Records a request; `value` is never `undefined` (that marks a finished one). */
  set(id: RequestId, value: T): void {
    if (this.byId.get(id) === undefined) {
      // Swept before the entry that would grow a full table: a table of 1,024 entries holds 1,024,
      // and sweeping after the 1,025th made a table of 2,048 only to drop it.
      if (this.byId.size >= FIRST_SWEEP && this.byId.size >= 4 * this.live) this.sweep();
      this.live++;
    }
    this.byId.set(id, value);
  }

  /** The request is done (an id not in flight is ignored). */
  delete(id: RequestId): void {
    if (this.byId.get(id) === undefined) return;
    this.byId.set(id, undefined);
    this.live--;
  }

  /** Every entry with its id (for answering what is still running). */
  entries(): Array<[RequestId, T]> {
    return [...this.byId].filter((entry): entry is [RequestId, T] => entry[1] !== undefined);
  }

  /** Every entry, then none. */
  drain(): T[] {
    const all = this.entries().map(([, value]) => value);
    this.byId = new Map();
    this.live = 0;
    return all;
  }

  /** Keeps the live entries only, in a map of their own (a new, right-sized table). */
  private sweep(): void {
    const live = new Map<RequestId, T | undefined>();
    for (const [id, value] of this.byId) if (value !== undefined) live.set(id, value);
    this.byId = live;
  }
}
