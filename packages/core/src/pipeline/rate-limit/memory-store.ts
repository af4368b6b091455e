import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitDecision, RateLimitRule, RateLimitStore } from './limiter.js';

/**
 * The default {@link RateLimitStore}: fixed windows counted in this process's memory, by
 * `rate-limiter-flexible`'s `RateLimiterMemory` (one per rule; a key's window starts with its
 * first call and its record is dropped when the window ends). Several processes each count their
 * own calls: use a shared store (e.g. Redis) to limit a caller across instances.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly limiters = new Map<string, RateLimiterMemory>();

  async consume(key: string, rule: RateLimitRule): Promise<RateLimitDecision> {
    const ruleKey = `${rule.points}/${rule.durationMs}`;
    let limiter = this.limiters.get(ruleKey);
    if (!limiter) this.limiters.set(ruleKey, (limiter = new RateLimiterMemory({ points: rule.points, duration: rule.durationMs / 1000 })));
    try {
      const res = await limiter.consume(key);
      return { allowed: true, remaining: res.remainingPoints, retryAfterMs: 0 };
    } catch (refused) {
      // The library rejects with its result object when the key is over its points.
      if (refused instanceof RateLimiterRes) return { allowed: false, remaining: 0, retryAfterMs: Math.max(1, Math.ceil(refused.msBeforeNext)) };
      throw refused;
    }
  }
}
