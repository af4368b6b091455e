import type { ErrorOrigin } from './codec.js';

/** Statuses 2026-07-28 fixes whatever raised the error (spec §5.8 and the digest's status table). */
const FIXED: ReadonlyMap<number, number> = new Map([
  [-32700, 400], // parse error
  [-32600, 400], // invalid request (incl. batches and response objects)
  [-32020, 400], // header mismatch (MUST)
  [-32021, 400], // missing required client capability (MUST)
  [-32022, 400], // unsupported protocol version (MUST)
  [-32601, 404], // unknown or unadvertised method (MUST, with the JSON-RPC body)
  [-31403, 403], // Decorum's forbidden: a guard refused the call (A-08: 403 for insufficient permission)
  [-31429, 429], // Decorum's rate limit: with Retry-After (the transport's error headers)
]);

/** The pipeline's refusals, a guard's -31403 and the rate limit's -31429: the same status in every era. */
export function pipelineRefusalStatus(code: number): number | undefined {
  return code === -31403 || code === -31429 ? FIXED.get(code) : undefined;
}

/**
 * The HTTP status of a JSON-RPC error response in 2026-07-28.
 *
 * `-32602` and `-32603` depend on where they arose. From the request itself (a missing `_meta`,
 * a bad log level) `-32602` is a 400, as the spec requires for `_meta`. From routing or the
 * handler (unknown tool, bad cursor, resource not found, internal failure) they answer 200, as the
 * digest recommends (H-40): once an SSE stream has begun the status is 200 anyway, and a 400 with an
 * ordinary code can make dual-era clients believe this is not a modern server and fall back to
 * `initialize`. An internal error before routing can only be a transport bug: 500.
 */
export function modernErrorStatus(code: number, origin: ErrorOrigin): number {
  const fixed = FIXED.get(code);
  if (fixed !== undefined) return fixed;
  if (origin === 'handler') return 200;
  return code === -32602 ? 400 : 500;
}
