import { mayHoldProtoKey } from './envelope.js';
import { strictUtf8 } from './strict-utf8.js';

/**
 * Splits a byte stream into newline-delimited messages with a hard bound on line length:
 * a line longer than `maxLineBytes` is dropped as it streams in (memory stays bounded) and
 * reported once, and reading resumes at the next newline. A line whose bytes are not valid UTF-8
 * is reported (`onInvalidUtf8`) instead of being decoded lossily: the complete lines of a chunk are
 * decoded and checked together (`strictUtf8`), line by line only when that check fails.
 *
 * The lines of a chunk decoded together are also screened together for what could spell a
 * `__proto__` key (see `mayHoldProtoKey`): two scans per chunk instead of two per line, which
 * `onLine` hears as `screened`.
 */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private discarding = false;

  constructor(
    private readonly maxLineBytes: number,
    /** `screened`: the text this line came in holds nothing that could spell a `__proto__` key. */
    private readonly onLine: (line: string, screened: boolean) => void,
    private readonly onOversized: () => void,
    private readonly onInvalidUtf8: () => void = () => {},
  ) {}

  /** Feeds one chunk of the stream; calls `onLine` for every complete line in it. */
  push(chunk: Buffer): void {
    let start = 0;
    if (this.pendingBytes > 0 || this.discarding) {
      // The first newline ends a line that began in an earlier chunk.
      const nl = chunk.indexOf(0x0a);
      if (nl === -1) {
        this.append(chunk);
        return;
      }
      this.append(chunk.subarray(0, nl));
      this.endLine();
      start = nl + 1;
    }
    const last = chunk.lastIndexOf(0x0a);
    if (last >= start) {
      // The complete lines are decoded with one call when together they fit the limit (always, for
      // pipe reads under the default 4 MiB); a byte 0x0a only ever encodes "\n" in UTF-8, so the
      // text splits where the bytes do.
      const text = last - start <= this.maxLineBytes ? strictUtf8(chunk, start, last) : undefined;
      if (text !== undefined) this.emitAll(text);
      else this.emitEach(chunk, start);
      start = last + 1;
    }
    if (start < chunk.length) this.append(chunk.subarray(start));
  }

  /** The stream ended: a last line without a newline still counts. */
  end(): void {
    if (this.pendingBytes > 0 || this.discarding) this.endLine();
  }

  private emitAll(text: string): void {
    const screened = !mayHoldProtoKey(text);
    let from = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', from)) {
      this.emit(text.slice(from, nl), screened);
      from = nl + 1;
    }
    this.emit(text.slice(from), screened);
  }

  /** Line by line, so that an oversized line is never decoded and only a line that is not UTF-8 is refused. */
  private emitEach(chunk: Buffer, start: number): void {
    for (let nl = chunk.indexOf(0x0a, start); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      if (nl - start > this.maxLineBytes) this.onOversized();
      else this.emitBytes(chunk.subarray(start, nl));
      start = nl + 1;
    }
  }

  private emitBytes(bytes: Buffer): void {
    const text = strictUtf8(bytes);
    if (text !== undefined) this.emit(text, false);
    else this.onInvalidUtf8();
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
    this.emitBytes(bytes);
  }

  private emit(line: string, screened: boolean): void {
    if (line.charCodeAt(line.length - 1) === 0x0d) line = line.slice(0, -1);
    if (line.trim() !== '') this.onLine(line, screened);
  }
}
