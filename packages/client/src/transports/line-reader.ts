const NEWLINE = 0x0a;

/**
 * Splits a byte stream into newline-delimited messages (stdio framing, S-01), with a size limit:
 * a line longer than `maxBytes` is never held in memory whole. Its bytes are dropped as they
 * arrive, `onTooLarge` is called once, and reading resumes after its newline.
 */
export class LineReader {
  private chunks: Buffer[] = [];
  private held = 0;
  private discarding = false;

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: (line: string) => void,
    private readonly onTooLarge: () => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl === -1) break;
      this.take(chunk.subarray(start, nl), true);
      start = nl + 1;
    }
    if (start < chunk.length) this.take(chunk.subarray(start), false);
  }

  private take(part: Buffer, ended: boolean): void {
    if (this.discarding) {
      if (ended) this.discarding = false;
      return;
    }
    if (this.held + part.length > this.maxBytes) {
      this.chunks = [];
      this.held = 0;
      this.discarding = !ended;
      this.onTooLarge();
      return;
    }
    if (!ended) {
      // Copied: the stream may reuse the chunk's memory.
      this.chunks.push(Buffer.from(part));
      this.held += part.length;
      return;
    }
    const line = this.chunks.length === 0 ? part.toString('utf8') : Buffer.concat([...this.chunks, part]).toString('utf8');
    this.chunks = [];
    this.held = 0;
    // Blank lines (and a CR before the LF) are framing, not messages.
    const trimmed = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (trimmed.trim() !== '') this.onLine(trimmed);
  }
}
