/**
 * The `ctx.once` journal of one handler run: each step's result as JSON, bounded in bytes. An
 * MRTR round seals it into `requestState`; a task keeps it in its record. Either way a replay
 * gets a step's stored result instead of running it again.
 */
import { DecorumUsageError, UsageErrorCode } from '../errors/usage-error.js';

export class OnceJournal {
  private bytes: number;

  constructor(
    /** The entries, by step name (written in place). */
    readonly entries: Record<string, unknown>,
    private readonly limitBytes: number,
  ) {
    this.bytes = Object.keys(entries).length === 0 ? 0 : Buffer.byteLength(JSON.stringify(entries));
  }

  has(name: string): boolean {
    return Object.hasOwn(this.entries, name);
  }

  /** Records `value` under `name` and returns what a replay would get (its JSON, parsed). */
  record<T>(name: string, value: T): T {
    const json = JSON.stringify(value === undefined ? null : value);
    const bytes = Buffer.byteLength(json) + Buffer.byteLength(JSON.stringify(name)) + 2;
    if (this.bytes + bytes > this.limitBytes) {
      throw new DecorumUsageError(
        UsageErrorCode.JOURNAL_OVERFLOW,
        `ctx.once("${name}"): the journal would exceed ${this.limitBytes} bytes (mrtr.journalLimitBytes); journal less, e.g. an id instead of the data`,
      );
    }
    this.bytes += bytes;
    const stored = JSON.parse(json) as T;
    this.entries[name] = stored;
    return stored;
  }
}
