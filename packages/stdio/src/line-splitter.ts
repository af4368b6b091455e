/**
 * Splits a byte stream into newline-delimited messages with a hard bound on line length:
 * a line longer than `maxLineBytes` is dropped as it streams in (memory stays bounded) and
 * reported once, and reading resumes at the next newline.
 */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private discarding = false;

  constructor(
    private readonly maxLineBytes: number,
    private readonly onLine: (line: string) => void,
    private readonly onOversized: () => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a, start); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      this.append(chunk.subarray(start, nl));
      this.endLine();
      start = nl + 1;
    }
    if (start < chunk.length) this.append(chunk.subarray(start));
  }

  /** The stream ended: a last line without a newline still counts. */
  end(): void {
    if (this.pendingBytes > 0 || this.discarding) this.endLine();
  }

  private append(part: Buffer): void {
    if (this.discarding || part.length === 0) return;
    if (this.pendingBytes + part.length > this.maxLineBytes) {
      this.discarding = true;
      this.pending = [];
      this.pendingBytes = 0;
      this.onOversized();
      return;
    }
    this.pending.push(part);
    this.pendingBytes += part.length;
  }

  private endLine(): void {
    if (this.discarding) {
      this.discarding = false;
      return;
    }
    const bytes = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    let line = bytes.toString('utf8');
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line.trim() !== '') this.onLine(line);
  }
}
