/**
 * The keys of one handler run's asks and the names of its `ctx.once` steps, each usable once. An
 * MRTR round and a task's run number their asks the same way (`elicit-1`, `sample-1`, … unless
 * the handler gives a key), so a deterministic handler asks with the same keys on every run.
 */
import { DecorumUsageError, UsageErrorCode } from '../errors/usage-error.js';
import type { InputOptions } from './ask-types.js';

/** The kinds of ask, each numbered on its own. */
export type AskKind = 'elicit' | 'sample' | 'roots';

export class AskKeys {
  private readonly used = new Set<string>();
  /** `ctx.once` names this run used: a second use would silently get the first one's result. */
  private readonly onceNames = new Set<string>();
  private readonly counters: Record<AskKind, number> = { elicit: 0, sample: 0, roots: 0 };

  /** `what` names the keys in errors (`MRTR key`, `Task input key`). */
  constructor(private readonly what: string) {}

  /** The next ask's key: the one given, else the kind and its number. */
  next(kind: AskKind, options: InputOptions | undefined): string {
    this.counters[kind] += 1;
    const key = options?.key ?? `${kind}-${this.counters[kind]}`;
    if (this.used.has(key))
      throw new DecorumUsageError(UsageErrorCode.KEY_REUSED, `${this.what} "${key}" is used twice in one handler run; give each ask its own key`);
    this.used.add(key);
    return key;
  }

  /** Claims a `ctx.once` name for this run. */
  once(name: string): void {
    if (this.onceNames.has(name))
      throw new DecorumUsageError(UsageErrorCode.KEY_REUSED, `ctx.once("${name}") is used twice in one handler run; give each step its own name`);
    this.onceNames.add(name);
  }
}
