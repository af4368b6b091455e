import type { AskLimitName, AskLimits } from './ask-limit-options.js';
import { AskLimitError } from './errors.js';

export type { AskLimitName, AskLimits };

/** The limits a client applies when its options do not say otherwise. */
export const DEFAULT_ASK_LIMITS: Readonly<Required<AskLimits>> = Object.freeze({
  maxConcurrentAsks: 4,
  maxAsksPerMinute: 60,
  maxAsksPerCall: 32,
  maxInputRequestsPerRound: 16,
  maxInputRounds: 8,
});

/** The methods a server asks with; `ping` and unknown methods cost nothing. */
export const ASK_METHODS: ReadonlySet<string> = new Set(['elicitation/create', 'sampling/createMessage', 'roots/list']);

/** The limits of `options`, defaults filled in (read once, at construction). */
export function askLimitsOf(options: AskLimits): Required<AskLimits> {
  const limits = { ...DEFAULT_ASK_LIMITS };
  for (const name of Object.keys(DEFAULT_ASK_LIMITS) as AskLimitName[]) if (options[name] !== undefined) limits[name] = options[name];
  return limits;
}

/**
 * One server's ask budget: slots for concurrent asks, and a token bucket of `maxAsksPerMinute`
 * tokens refilled evenly over a minute.
 */
export class AskBudget {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private tokens: number;
  private refilledAt: number;

  constructor(
    readonly limits: Readonly<Required<AskLimits>>,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = limits.maxAsksPerMinute;
    this.refilledAt = now();
  }

  /** Takes `count` asks from the per-minute budget (all or none), or throws {@link AskLimitError}. */
  spend(asked: string, count: number): void {
    const max = this.limits.maxAsksPerMinute;
    const now = this.now();
    this.tokens = Math.min(max, this.tokens + ((now - this.refilledAt) * max) / 60_000);
    this.refilledAt = now;
    if (this.tokens < count) throw new AskLimitError('maxAsksPerMinute', max, asked);
    this.tokens -= count;
  }

  /** A slot for one ask now, or {@link AskLimitError} when every slot is taken (a legacy server's request). */
  enter(asked: string): () => void {
    if (this.active >= this.limits.maxConcurrentAsks) throw new AskLimitError('maxConcurrentAsks', this.limits.maxConcurrentAsks, asked);
    this.active++;
    return this.release();
  }

  /** A slot for one ask, waiting for one to free up (a modern round: the client paces its own asks). */
  async wait(): Promise<() => void> {
    if (this.active < this.limits.maxConcurrentAsks) {
      this.active++;
      return this.release();
    }
    // The slot passes straight from the leaving ask to the waiting one: `active` stays the same.
    await new Promise<void>((resolve) => this.waiting.push(resolve));
    return this.release();
  }

  private release(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    };
  }
}
