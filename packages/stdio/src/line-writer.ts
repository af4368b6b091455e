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
 * until it drains and then go out as one chunk.
 */
export class LineWriter {
  private queued = '';
  private scheduled = false;
  private waitingForDrain = false;

  constructor(private readonly output: Writable) {}

  /** Queues one message (without its newline). */
  write(line: string): void {
    this.queued += `${line}\n`;
    if (this.waitingForDrain) return;
    if (this.queued.length >= FLUSH_AT) this.flush();
    else if (!this.scheduled) {
      // A tick queued from a promise job runs after the whole job queue: every answer of the burst.
      this.scheduled = true;
      process.nextTick(this.endOfBurst);
    }
  }

  /**
   * Writes everything queued now, even into a stream that asked to wait (shutdown, exit).
   * `done` runs once the stream has handed all of it on.
   */
  flushAll(done?: () => void): void {
    const text = this.queued;
    this.queued = '';
    if (text !== '') this.output.write(text);
    if (!done) return;
    if (this.output.writableLength > 0) this.output.write('', done);
    else done();
  }

  private readonly endOfBurst = (): void => {
    this.scheduled = false;
    this.flush();
  };

  private flush(): void {
    if (this.waitingForDrain || this.queued === '') return;
    const text = this.queued;
    this.queued = '';
    if (!this.output.write(text)) {
      this.waitingForDrain = true;
      this.output.once('drain', this.drained);
    }
  }

  private readonly drained = (): void => {
    this.waitingForDrain = false;
    this.flush();
  };
}
