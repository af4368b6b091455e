import { PassThrough, Writable } from 'node:stream';
import pino from 'pino';
import type { ServerTarget } from '@decorum/core';
import { serveStdio, type ServeStdioOptions, type StdioServer } from '@decorum/stdio';

/**
 * A stdout stand-in that records every chunk the server wrote. `delayMs` makes it a slow reader
 * (each chunk is acknowledged later), `stall()` one that stopped reading, and a small
 * `highWaterMark` makes `write` return false soon.
 */
export class RecordingOutput extends Writable {
  /** The text of each chunk, in the order the stream took them. */
  readonly chunks: string[] = [];

  constructor(
    private readonly delayMs = 0,
    highWaterMark?: number,
  ) {
    super({ highWaterMark });
  }

  private held: Array<() => void> | undefined;

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.chunks.push(chunk.toString('utf8'));
    this.emit('recorded');
    if (this.held) this.held.push(callback);
    else if (this.delayMs > 0) setTimeout(callback, this.delayMs);
    else callback();
  }

  /** Stops acknowledging chunks: a client that stopped reading. */
  stall(): void {
    this.held ??= [];
  }

  /** Acknowledges what was held, and every chunk from now on. */
  unstall(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const callback of held) callback();
  }

  /** Every complete line written so far. */
  get lines(): string[] {
    const text = this.chunks.join('');
    return text
      .slice(0, text.lastIndexOf('\n') + 1)
      .split('\n')
      .slice(0, -1);
  }

  get messages(): Array<Record<string, any>> {
    return this.lines.map((line) => JSON.parse(line));
  }
}

/** A stdio server on in-memory streams, with the process left alone (no signals, no exit, console untouched). */
export function serveInProcess(targets: ServerTarget[], options: ServeStdioOptions & { output?: RecordingOutput } = {}) {
  const input = new PassThrough();
  const output = options.output ?? new RecordingOutput();
  const served: StdioServer = serveStdio(targets, {
    logger: pino({ level: 'silent' }),
    redirectConsole: false,
    handleSignals: false,
    exitOnClose: false,
    ...options,
    input,
    output,
  });

  /** Resolves once `predicate` holds for what was written (checked after each chunk). */
  async function until(predicate: (messages: Array<Record<string, any>>) => boolean): Promise<Array<Record<string, any>>> {
    while (!predicate(output.messages)) await new Promise((resolve) => output.once('recorded', resolve));
    return output.messages;
  }

  return { input, output, served, until };
}
