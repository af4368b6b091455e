import type { RequestId } from '@decorum/core';

/**
 * The requests being served, by id. `"1"` and `1` are different requests; two maps keep them
 * apart by the id itself, instead of building a `typeof:id` string key for every request.
 */
export class InFlight<T> {
  private readonly byString = new Map<string, T>();
  private readonly byNumber = new Map<number, T>();

  get size(): number {
    return this.byString.size + this.byNumber.size;
  }

  has(id: RequestId): boolean {
    return this.mapOf(id).has(id);
  }

  get(id: RequestId): T | undefined {
    return this.mapOf(id).get(id);
  }

  set(id: RequestId, value: T): void {
    this.mapOf(id).set(id, value);
  }

  delete(id: RequestId): void {
    this.mapOf(id).delete(id);
  }

  /** Every entry with its id (for answering what is still running). */
  entries(): Array<[RequestId, T]> {
    return [...this.byString.entries(), ...this.byNumber.entries()] as Array<[RequestId, T]>;
  }

  /** Every entry, then none. */
  drain(): T[] {
    const all = [...this.byString.values(), ...this.byNumber.values()];
    this.byString.clear();
    this.byNumber.clear();
    return all;
  }

  private mapOf(id: RequestId): Map<RequestId, T> {
    return (typeof id === 'string' ? this.byString : this.byNumber) as Map<RequestId, T>;
  }
}
