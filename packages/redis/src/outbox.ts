/** One message waiting to be written to Redis. */
export interface Pending {
  readonly seq: number;
  readonly text: string;
}

/**
 * The messages published while Redis is away, in sequence order, at most `limit` of them: once it
 * is full a new message is dropped (and counted), so an outage costs bounded memory. A write that
 * failed goes back in its place, so the flush after a reconnect keeps the publishing order.
 */
export class Outbox {
  private readonly items: Pending[] = [];
  /** Messages dropped because the outbox was full, since start-up. */
  dropped = 0;

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`bufferLimit must be a positive integer (got ${limit})`);
  }

  get size(): number {
    return this.items.length;
  }

  /** Queues a message; `false` (and counted as dropped) when the outbox is full. */
  add(item: Pending): boolean {
    if (this.items.length >= this.limit) {
      this.dropped++;
      return false;
    }
    let at = this.items.length;
    while (at > 0 && this.items[at - 1].seq > item.seq) at--;
    this.items.splice(at, 0, item);
    return true;
  }

  /** Takes every queued message, oldest first. */
  drain(): Pending[] {
    return this.items.splice(0);
  }
}
