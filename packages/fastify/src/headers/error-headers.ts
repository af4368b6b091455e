import { ForbiddenError, RateLimitedError, type JsonRpcErrorObject } from '@decorum/core';

/**
 * Response headers that go with a handler's JSON-RPC error: `Retry-After` (whole seconds, rounded
 * up) with a rate-limit 429, and on a protected endpoint the `WWW-Authenticate` challenge of a
 * guard's 403. `undefined` for every other error (the common case allocates nothing).
 */
export function errorHeaders(error: JsonRpcErrorObject, challenge: ((error: JsonRpcErrorObject) => string) | undefined): Record<string, string> | undefined {
  if (error.code === RateLimitedError.code) {
    const ms = (error.data as { retryAfterMs?: unknown } | undefined)?.retryAfterMs;
    return { 'retry-after': String(Math.max(1, Math.ceil((typeof ms === 'number' ? ms : 1000) / 1000))) };
  }
  if (error.code === ForbiddenError.code && challenge) return { 'www-authenticate': challenge(error) };
  return undefined;
}
