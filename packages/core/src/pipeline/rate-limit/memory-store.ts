import type { RateLimitDecision, RateLimitRule, RateLimitStore } from './store.js';

/** One key's current window. */
interface Window {
  used: number;
  resetAt: number;
}

/** The one answer for every call within its budget (nothing allocated per call). */
const ALLOWED: RateLimitDecision = Object.freeze({ allowed: true, retryAfterMs: 0 });

/** Windows kept before the first sweep of ended ones. */
const FIRST_SWEEP = 1024;

/**
 * The default {@link RateLimitStore}: fixed windows counted in this process's memory. A key's
 * window starts with its first call and lasts `durationMs`; ended windows are dropped in sweeps
 * that run when the map has doubled, so there is no timer per key and no promise per call.
 *
 * Hand-written on purpose: `rate-limiter-flexible`'s `RateLimiterMemory` (tried first) answers
 * through a promise and a timer per key window (its cost: docs/perf-notes.md, "Figures behind
 * source comments"); this answers synchronously for a Map lookup. Several processes each count their own
 * calls: use a shared store (e.g. Redis) to limit a caller across instances.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  // One map per rule object (each server's limiter has one), so that servers sharing a store
  // never mix counts, and no rule key is built per call.
  private readonly byRule = new Map<RateLimitRule, Map<string, Window>>();
  private nextSweep = FIRST_SWEEP;

  consume(key: string, rule: RateLimitRule): RateLimitDecision {
    let windows = this.byRule.get(rule);
    if (!windows) this.byRule.set(rule, (windows = new Map()));
    const now = Date.now();
    let window = windows.get(key);
    if (window === undefined || window.resetAt <= now) {
      if (window === undefined && windows.size >= this.nextSweep) this.sweep(windows, now);
      window = { used: 0, resetAt: now + rule.durationMs };
      windows.set(key, window);
    }
    window.used++;
    if (window.used > rule.points) return { allowed: false, retryAfterMs: Math.max(1, window.resetAt - now) };
    return ALLOWED;
  }

  /** Drops ended windows; the next sweep waits until the map has doubled again. */
  private sweep(windows: Map<string, Window>, now: number): void {
    for (const [key, window] of windows) if (window.resetAt <= now) windows.delete(key);
    this.nextSweep = Math.max(FIRST_SWEEP, windows.size * 2);
  }
}
