import type { JsonObject } from '@decorum/core';
import type { CacheableResult } from './results.js';

/** The methods whose results carry `ttlMs`/`cacheScope` and may be reused (C-01). */
export const CACHEABLE: ReadonlySet<string> = new Set(['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read']);

/** Which cached methods each change notification makes stale at once (C-07). */
const INVALIDATES: Record<string, readonly string[]> = {
  'notifications/tools/list_changed': ['tools/list'],
  'notifications/prompts/list_changed': ['prompts/list'],
  'notifications/resources/list_changed': ['resources/list', 'resources/templates/list'],
};

interface Entry {
  readonly result: CacheableResult;
  readonly expiresAt: number;
  readonly method: string;
  readonly uri?: string;
}

/**
 * Results kept by their freshness hints (§10, HC-03): fresh while `now < received + ttlMs`
 * (a missing hint counts as `fallbackTtlMs`, 0 unless configured). The key is the method and the
 * params that shape the result (`cursor`, `uri`); a `private` result's key adds the caller's
 * principal, so it is never served under another token. Results of MRTR retries never get here.
 */
export class ResultCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly fallbackTtlMs = 0,
    private readonly now: () => number = Date.now,
  ) {}

  get(method: string, params: JsonObject, principal: string): CacheableResult | undefined {
    const key = keyOf(method, params);
    return this.fresh(key) ?? this.fresh(`${key}\u0000${principal}`);
  }

  set(method: string, params: JsonObject, principal: string, result: CacheableResult): void {
    const ttl = typeof result.ttlMs === 'number' && result.ttlMs > 0 ? result.ttlMs : result.ttlMs === undefined ? this.fallbackTtlMs : 0;
    if (ttl <= 0) return;
    // Legacy results have no scope: kept private, the safe reading.
    const key = result.cacheScope === 'public' ? keyOf(method, params) : `${keyOf(method, params)}\u0000${principal}`;
    this.entries.set(key, { result, expiresAt: this.now() + ttl, method, uri: params.uri as string | undefined });
  }

  /** Drops what a change notification makes stale: a list, or the reads of an updated resource. */
  invalidate(notification: { method: string; params?: JsonObject }): void {
    const methods = INVALIDATES[notification.method];
    const updated = notification.method === 'notifications/resources/updated' ? (notification.params?.uri as string | undefined) : undefined;
    if (!methods && updated === undefined) return;
    for (const [key, entry] of this.entries) {
      if (methods?.includes(entry.method)) this.entries.delete(key);
      // `uri` may name a sub-resource of the one read: both directions are stale.
      else if (updated !== undefined && entry.uri !== undefined && (entry.uri === updated || updated.startsWith(entry.uri) || entry.uri.startsWith(updated)))
        this.entries.delete(key);
    }
  }

  /** Drops every entry of `method` (e.g. after a cursor error, every page of the list). */
  drop(method?: string): void {
    for (const [key, entry] of this.entries) if (method === undefined || entry.method === method) this.entries.delete(key);
  }

  private fresh(key: string): CacheableResult | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.now() < entry.expiresAt) return entry.result;
    this.entries.delete(key);
    return undefined;
  }
}

function keyOf(method: string, params: JsonObject): string {
  // `""` is a real cursor (PG-02), distinct from none.
  return `${method}\u0000${JSON.stringify(params.cursor ?? null)}\u0000${(params.uri as string | undefined) ?? ''}`;
}
