import {
  DecorumStartupError,
  MemoryRateLimitStore,
  StartupErrorCode,
  type Logger,
  type RateLimitDecision,
  type RateLimitRule,
  type RateLimitStore,
} from '@decorum/core';
import { createDefaultLogger } from '@decorum/core/transport';
import type { Cluster, Redis } from 'ioredis';

/** Options of {@link RedisRateLimitStore}. */
export interface RedisRateLimitStoreOptions {
  /** The connection to count on (a `RedisNotificationBus` passes its publishing connection). */
  client: Redis | Cluster;
  /** Prefix of the counters' keys (default `decorum:rate:`); one per deployment sharing a Redis. */
  keyPrefix?: string;
  /**
   * How long a count may take before it is made in memory instead (default 200 ms: a Redis
   * round trip takes a millisecond or two, and every rate-limited call waits for it).
   */
  timeoutMs?: number;
  /** Where outages and recoveries are logged (default: core's logger). */
  logger?: Logger;
}

/**
 * One fixed window per key, atomically: the first call creates the counter with the window as its
 * expiry; every call increments it and reads what is left of the window. A counter that somehow
 * lost its expiry gets one again, so no key outlives its window.
 */
const CONSUME = `
local used = redis.call('INCR', KEYS[1])
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  left = tonumber(ARGV[1])
end
return { used, left }
`;

/** The script's name on the client (ioredis sends it with EVALSHA, loading it when Redis lacks it). */
const COMMAND = 'decorumRateLimitConsume';

type Counting = { [COMMAND](key: string, windowMs: number): Promise<[number, number]> };

const ALLOWED: RateLimitDecision = Object.freeze({ allowed: true, retryAfterMs: 0 });

/** While a count Redis did not answer in time is still unanswered, how long calls skip Redis before one asks it again. */
const HUNG_RETRY_MS = 1000;

/**
 * A `RateLimitStore` in Redis, shared by every instance of a deployment: a caller's budget is
 * counted once, wherever its calls land. Fixed windows, as in core's `MemoryRateLimitStore` — a
 * key's window starts with its first call — counted by one Lua script per call (atomic: `INCR`,
 * `PTTL`, `PEXPIRE` on one key), so it costs one round trip.
 *
 * When Redis does not answer (down, reconnecting, or slower than `timeoutMs`) the call is counted
 * in this instance's memory instead, under the same rule: limits stay on — per instance, so a
 * caller may get up to one budget per instance while Redis is away — and serving goes on. One
 * warning is logged per outage, and one line when counting is back in Redis. A Redis that hangs
 * (a count unanswered past `timeoutMs`) is not waited for again until that count is answered, or
 * for a second: a hung Redis costs one call `timeoutMs` per second, not every call.
 *
 * `RedisNotificationBus` makes one on its own connection (`bus.rateLimitStore`), which
 * `createServer` uses when `rateLimit` names no store.
 */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly client: Counting;
  private readonly keyPrefix: string;
  private readonly timeoutMs: number;
  private readonly logger: Logger;
  private readonly fallback = new MemoryRateLimitStore();
  /** One prefix per rule, so that servers with different rules never share a counter. */
  private readonly prefixes = new WeakMap<RateLimitRule, string>();
  private degraded = false;
  /** When a count timed out that Redis has not answered since (0: none). */
  private hungSince = 0;

  constructor(options: RedisRateLimitStoreOptions) {
    const client = options.client as (Redis | Cluster) & Partial<Counting>;
    if (typeof client[COMMAND] !== 'function') client.defineCommand(COMMAND, { numberOfKeys: 1, lua: CONSUME });
    this.client = client as unknown as Counting;
    this.keyPrefix = options.keyPrefix ?? 'decorum:rate:';
    this.timeoutMs = options.timeoutMs ?? 200;
    if (!Number.isInteger(this.timeoutMs) || this.timeoutMs < 1)
      throw new DecorumStartupError(StartupErrorCode.INVALID_NUMBER, `RedisRateLimitStore: timeoutMs must be a positive integer (got ${this.timeoutMs})`);
    this.logger = (options.logger ?? createDefaultLogger()).child({ component: 'redis-rate-limit' });
  }

  /** Whether calls are being counted in memory because Redis did not answer the last one. */
  get inMemory(): boolean {
    return this.degraded;
  }

  async consume(key: string, rule: RateLimitRule): Promise<RateLimitDecision> {
    if (this.hungSince !== 0 && Date.now() - this.hungSince < HUNG_RETRY_MS) return this.fallback.consume(key, rule);
    let answer: [number, number];
    try {
      answer = await this.count(`${this.prefixOf(rule)}${key}`, rule.durationMs);
    } catch (error) {
      if (!this.degraded) {
        this.degraded = true;
        this.logger.warn(
          { err: error },
          `Redis unavailable for rate limits (${(error as Error).message}): counting them in this instance's memory until it answers again`,
        );
      }
      return this.fallback.consume(key, rule);
    }
    this.answered();
    const [used, left] = answer;
    return used > rule.points ? { allowed: false, retryAfterMs: Math.max(1, Number(left)) } : ALLOWED;
  }

  /** Redis answered a count: counting is back there. */
  private answered(): void {
    this.hungSince = 0;
    if (this.degraded) {
      this.degraded = false;
      this.logger.info('Redis answers again: rate limits are counted there, shared by the instances');
    }
  }

  private prefixOf(rule: RateLimitRule): string {
    let prefix = this.prefixes.get(rule);
    if (prefix === undefined) this.prefixes.set(rule, (prefix = `${this.keyPrefix}${rule.points}/${rule.durationMs}:`));
    return prefix;
  }

  /**
   * The script's answer, or a rejection once `timeoutMs` passed (the count is then made in memory,
   * and Redis counts as hung until this count is answered: its late answer ends the outage).
   */
  private count(key: string, windowMs: number): Promise<[number, number]> {
    return new Promise((resolve, reject) => {
      let late = false;
      const timer = setTimeout(() => {
        late = true;
        this.hungSince = Date.now();
        reject(new Error(`no answer within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.client[COMMAND](key, windowMs).then(
        (answer) => {
          clearTimeout(timer);
          if (late) this.answered();
          resolve(answer);
        },
        (error: unknown) => {
          clearTimeout(timer);
          if (late) this.hungSince = 0;
          reject(error);
        },
      );
    });
  }
}
