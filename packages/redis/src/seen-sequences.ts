/**
 * The highest sequence number applied per sending instance, so a message that arrives twice (live
 * on the channel and again in the catch-up after a reconnect) is applied once. Instances come and
 * go (each start has a new id), so only the most recently heard `limit` senders are remembered.
 */
export class SeenSequences {
  private readonly last = new Map<string, number>();

  constructor(private readonly limit = 1024) {}

  get size(): number {
    return this.last.size;
  }

  /** Records `seq` for `origin`; `false` when it (or a later one) was already seen. */
  admit(origin: string, seq: number): boolean {
    const last = this.last.get(origin);
    if (last !== undefined && seq <= last) return false;
    // Re-inserted so the Map's order is by recency: the first key is the one heard least lately.
    this.last.delete(origin);
    this.last.set(origin, seq);
    if (this.last.size > this.limit) this.last.delete(this.last.keys().next().value as string);
    return true;
  }
}
