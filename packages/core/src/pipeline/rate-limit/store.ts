// What a rate-limit store is, apart from the limiter that uses one and the memory store that is one
// (so neither imports the other).

/** A budget: `points` calls per window of `durationMs`. */
export interface RateLimitRule {
  readonly points: number;
  readonly durationMs: number;
}

/** A store's answer for one call. */
export interface RateLimitDecision {
  readonly allowed: boolean;
  /** When refused: milliseconds until the window lets this key call again. */
  readonly retryAfterMs: number;
}

/**
 * Where call counts live. The default counts in memory (`MemoryRateLimitStore`); a shared
 * store implements the same one method — `@decorum/redis`'s `RedisRateLimitStore`, which a
 * `RedisNotificationBus` offers as its `rateLimitStore` (see `NotificationBus`), so that servers
 * behind a load balancer share each caller's budget.
 */
export interface RateLimitStore {
  /** Counts one call of `key` against `rule` and says whether it is within the budget. */
  consume(key: string, rule: RateLimitRule): Promise<RateLimitDecision> | RateLimitDecision;
}
