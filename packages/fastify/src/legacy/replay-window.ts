/** What a kept event belongs to: the stream told when the window lets one of its events go. */
export interface ReplayStream {
  /** Its oldest kept event left the window to make room. */
  evicted(event: KeptEvent): void;
}

/** One SSE event kept for `Last-Event-ID` replay, linked in its session's window from oldest to newest. */
export class KeptEvent {
  older: KeptEvent | undefined;
  newer: KeptEvent | undefined;

  constructor(
    readonly stream: ReplayStream,
    readonly seq: number,
    /** The event as written (`id:`, `data:` lines). */
    readonly frame: string,
  ) {}
}

/**
 * The events one legacy session keeps for resumption, across all its streams, bounded in bytes
 * (the frames' characters: their UTF-8 size for ASCII JSON, counted without a pass over the text)
 * and in count. Making room lets the session's oldest events go first, whatever their stream, so a
 * session holds at most the bound however many answers it streamed.
 */
export class ReplayWindow {
  private oldest: KeptEvent | undefined;
  private newest: KeptEvent | undefined;
  private bytes = 0;
  private count = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly maxEvents: number,
  ) {}

  /**
   * Keeps an event, the oldest ones leaving to make room; false (nothing kept, nothing evicted)
   * when the event alone is larger than the bound.
   */
  keep(event: KeptEvent): boolean {
    const size = event.frame.length;
    if (size > this.maxBytes) return false;
    while (this.oldest && (this.count >= this.maxEvents || this.bytes + size > this.maxBytes)) {
      const old = this.oldest;
      this.remove(old);
      old.stream.evicted(old);
    }
    event.older = this.newest;
    if (this.newest) this.newest.newer = event;
    else this.oldest = event;
    this.newest = event;
    this.bytes += size;
    this.count++;
    return true;
  }

  /** Lets a kept event go (acknowledged by a later `Last-Event-ID`, or its stream is forgotten). */
  remove(event: KeptEvent): void {
    if (event.older) event.older.newer = event.newer;
    else this.oldest = event.newer;
    if (event.newer) event.newer.older = event.older;
    else this.newest = event.older;
    event.older = event.newer = undefined;
    this.bytes -= event.frame.length;
    this.count--;
  }
}
