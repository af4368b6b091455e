import type { Writable } from 'node:stream';

/** Past this many queued characters (a pipe's default capacity) the queue is written at once. */
const FLUSH_AT = 64 * 1024;

/**
 * Writes newline-delimited messages with one `write` per burst: the lines queued while one I/O
 * callback and the promise jobs it started run (the answers to a chunk of requests) leave
 * together, from a `process.nextTick` that runs once those jobs are done. Each `write` to a pipe is
 * a system call (a synchronous one for process.stdout on Linux), and one per message was the
 * largest cost of mcp-serve under load.
 *
 * Lines keep their order. When the stream asks to wait (`write` returned false), lines queue here
 * until it drains. The queue is a list of lines, never one string: a reader that stops reading
 * while megabyte answers pile up must not build a string past V8's limit (`Invalid string length`).
 * A burst is joined into one write only up to {@link FLUSH_AT} characters; longer lines go alone.
 *
 * {@link pending} (what waits here plus what the stream still buffers) is what a caller bounds:
 * `onPressure(true)` runs when it passes `maxPendingChars`, `onPressure(false)` once the stream has
 * drained and it is back under half of that (see output-backpressure.ts).
 */
export class LineWriter {
  private queue: string[] = [];
  private queuedChars = 0;
  private scheduled = false;
  private waitingForDrain = false;
  private pressured = false;
  /**
   * `output.writableLength` after this writer's last write. Only this writer writes to the stream,
   * so what the stream buffers can only shrink until the next write: `queuedChars` plus this is an
   * upper bound of {@link pending}, checked first so that most lines skip the stream's getter.
   */
  private streamChars = 0;

  constructor(
    private readonly output: Writable,
    private readonly maxPendingChars = Number.POSITIVE_INFINITY,
    private readonly onPressure: (pressured: boolean) => void = () => {},
  ) {}

  /** Characters queued here or still buffered by the stream. */
  get pending(): number {
    return this.queuedChars + this.output.writableLength;
  }

  /** Queues one message (without its newline). */
  write(line: string): void {
    this.queue.push(line);
    this.queuedChars += line.length + 1;
    if (!this.waitingForDrain) {
      if (this.queuedChars >= FLUSH_AT) this.flush();
      else if (!this.scheduled) {
        // A tick queued from a promise job runs after the whole job queue: every answer of the burst.
        this.scheduled = true;
        process.nextTick(this.endOfBurst);
      }
    }
    if (!this.pressured && this.queuedChars + this.streamChars > this.maxPendingChars && this.pending > this.maxPendingChars) {
      this.pressured = true;
      this.onPressure(true);
    }
  }

  /**
   * Writes everything queued now, even into a stream that asked to wait (shutdown, exit).
   * `done` runs once the stream has handed all of it on.
   */
  flushAll(done?: () => void): void {
    const lines = this.take(this.queue.length);
    for (const line of lines) this.output.write(`${line}\n`);
    this.streamChars = this.output.writableLength;
    if (!done) return;
    if (this.streamChars > 0) this.output.write('', done);
    else done();
  }

  private readonly endOfBurst = (): void => {
    this.scheduled = false;
    this.flush();
  };

  /** Writes queued lines in chunks of about {@link FLUSH_AT} characters until the stream asks to wait. */
  private flush(): void {
    while (!this.waitingForDrain && this.queue.length > 0) {
      let count = 0;
      let chars = 0;
      while (count < this.queue.length && (count === 0 || chars + this.queue[count].length < FLUSH_AT)) chars += this.queue[count++].length + 1;
      const lines = this.take(count);
      const text = lines.length === 1 ? `${lines[0]}\n` : `${lines.join('\n')}\n`;
      if (!this.output.write(text)) {
        this.waitingForDrain = true;
        this.output.once('drain', this.drained);
      }
    }
    this.streamChars = this.output.writableLength;
  }

  /** Removes the first `count` lines from the queue. */
  private take(count: number): string[] {
    const lines = count === this.queue.length ? this.queue : this.queue.splice(0, count);
    if (lines === this.queue) this.queue = [];
    for (const line of lines) this.queuedChars -= line.length + 1;
    return lines;
  }

  private readonly drained = (): void => {
    this.waitingForDrain = false;
    this.flush();
    if (this.pressured && this.pending <= this.maxPendingChars / 2) {
      this.pressured = false;
      this.onPressure(false);
    }
  };
}
