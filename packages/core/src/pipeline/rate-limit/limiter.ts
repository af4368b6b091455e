import { DecorumStartupError, StartupErrorCode } from '../../errors/startup-error.js';
import { RateLimitedError } from '../../errors/protocol-errors.js';
import { isThenable } from '../../async/thenable.js';
import type { PipelineCall } from '../call.js';
import { MemoryRateLimitStore } from './memory-store.js';
import type { RateLimitDecision, RateLimitRule, RateLimitStore } from './store.js';

/** Options of `createServer({ rateLimit })`. */
export interface RateLimitOptions {
  /** Calls allowed per window (default 6,000,000). */
  points?: number;
  /** The window in ms (default 60,000). */
  durationMs?: number;
  /**
   * Count each tool, prompt and resource apart (default `true`): a caller's budget is per target.
   * `false`: one budget per caller for all of them.
   */
  perTool?: boolean;
  /**
   * Where the counts live. Default: the notification bus's shared store when it offers one
   * (`RedisNotificationBus`: one budget across the instances), else in this process's memory.
   */
  store?: RateLimitStore;
}

/**
 * The default budget, per caller and per tool: 6,000,000 calls a minute (100,000 a second on
 * average). It is a bound on runaway loops, not a policy — no agent calls one tool that often —
 * sized so that it never refuses ordinary or benchmark traffic, whose bursts a one-second window
 * would refuse (docs/perf-notes.md, "Figures behind source comments"). Servers with real quotas
 * set their own (`rateLimit: { points: 600, durationMs: 60_000 }`).
 */
export const DEFAULT_RATE_LIMIT: Readonly<Required<Omit<RateLimitOptions, 'store'>>> = Object.freeze({ points: 6_000_000, durationMs: 60_000, perTool: true });

function positiveInteger(value: number, what: string): number {
  if (!Number.isInteger(value) || value < 1)
    throw new DecorumStartupError(StartupErrorCode.INVALID_NUMBER, `rateLimit.${what} must be a positive integer (got ${value})`);
  return value;
}

/**
 * Rate limiting of the calls that use a target (`tools/call`, `prompts/get`, `resources/read`), as
 * the spec asks (T-18), per caller ({@link PipelineCall.principal}: the token's subject, else the
 * remote address, else the one stdio client) and by default per target. Lists and discovery are
 * served from pages built at start-up and are not counted.
 */
export class RateLimiter {
  private readonly rule: RateLimitRule;
  private readonly perTool: boolean;
  private readonly store: RateLimitStore;
  /**
   * The last per-target key and what it was made of: a caller calls the same target over and
   * over, and a key string the store has seen is a Map lookup with nothing to hash or compare
   * char by char, where a new one would be built and hashed per call.
   */
  private last = { principal: '', kind: '', name: '', key: '' };

  /** @param sharedStore the store used when `options.store` is not given (a multi-instance bus's). */
  constructor(options: RateLimitOptions, sharedStore?: RateLimitStore) {
    if (options === null || typeof options !== 'object') throw new DecorumStartupError(StartupErrorCode.INVALID_OPTION, 'rateLimit must be an object or false');
    this.rule = Object.freeze({
      points: positiveInteger(options.points ?? DEFAULT_RATE_LIMIT.points, 'points'),
      durationMs: positiveInteger(options.durationMs ?? DEFAULT_RATE_LIMIT.durationMs, 'durationMs'),
    });
    this.perTool = options.perTool ?? DEFAULT_RATE_LIMIT.perTool;
    this.store = options.store ?? sharedStore ?? new MemoryRateLimitStore();
  }

  /**
   * Counts the call; throws {@link RateLimitedError} (-31429, `data.retryAfterMs`) over the budget.
   * Synchronous when the store is (the memory store): a promise only for a remote store.
   */
  check(call: PipelineCall): Promise<void> | undefined {
    const target = call.target!;
    const key = this.perTool ? this.targetKey(call.principal, target.kind, target.name) : call.principal;
    const decision = this.store.consume(key, this.rule);
    if (isThenable(decision)) return Promise.resolve(decision).then((d) => this.enforce(d, call));
    this.enforce(decision, call);
    return undefined;
  }

  private targetKey(principal: string, kind: string, name: string): string {
    const last = this.last;
    if (principal !== last.principal || kind !== last.kind || name !== last.name) this.last = { principal, kind, name, key: `${principal}|${kind}:${name}` };
    return this.last.key;
  }

  private enforce(decision: RateLimitDecision, call: PipelineCall): void {
    if (decision.allowed) return;
    const target = call.target!;
    const { points, durationMs } = this.rule;
    throw new RateLimitedError(
      `Rate limit exceeded: ${points} calls per ${durationMs} ms${this.perTool ? ` of ${call.method} "${target.name}"` : ''} per caller; retry in ${decision.retryAfterMs} ms`,
      { retryAfterMs: decision.retryAfterMs, limit: points, windowMs: durationMs },
    );
  }
}
