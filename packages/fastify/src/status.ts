/**
 * The one place that decides HTTP statuses on the MCP endpoint (spec §5.8 and the digest's status
 * table). Every response the transport writes takes its status from here.
 */

/** A refusal made before a JSON-RPC message is read: the HTTP layer said no. */
export type RefusalKind =
  | 'forbidden-origin'
  | 'forbidden-host'
  | 'method-not-allowed'
  | 'not-acceptable'
  | 'body-too-large'
  | 'unsupported-media-type'
  | 'unreadable-body'
  | 'unauthorized'
  | 'insufficient-scope'
  // Legacy (2025-11-25) sessions, see legacy/:
  | 'session-required'
  | 'unknown-session'
  | 'stream-conflict'
  | 'too-many-sessions';

const REFUSAL_STATUS: Readonly<Record<RefusalKind, number>> = {
  'forbidden-origin': 403,
  'forbidden-host': 403, // DNS-rebinding defence: Host not allowed (headers/host-check.ts)
  'method-not-allowed': 405,
  'not-acceptable': 406,
  'body-too-large': 413,
  'unsupported-media-type': 415,
  'unreadable-body': 400,
  unauthorized: 401, // OAuth: no, invalid or expired bearer token
  'insufficient-scope': 403, // OAuth: valid token without the scopes the operation needs
  'session-required': 400, // a legacy request without Mcp-Session-Id
  'unknown-session': 404, // unknown, expired or ended session: the client initializes again
  'stream-conflict': 409, // a second standalone GET stream on one session
  'too-many-sessions': 503, // the session store is full
};

/** The status of a refusal. */
export function refusalStatus(kind: RefusalKind): number {
  return REFUSAL_STATUS[kind];
}

/**
 * Where a JSON-RPC error arose.
 * - `request`: the message itself is unusable — its JSON, envelope, `_meta`, MCP headers or
 *   protocol version. Nothing was routed.
 * - `handler`: the message was well formed and its method known; its target (unknown tool,
 *   missing resource) or its handler failed.
 */
export type ErrorOrigin = 'request' | 'handler';

/** Statuses the spec fixes whatever raised the error. */
const FIXED: ReadonlyMap<number, number> = new Map([
  [-32700, 400], // parse error
  [-32600, 400], // invalid request (incl. batches and response objects)
  [-32020, 400], // header mismatch (MUST)
  [-32021, 400], // missing required client capability (MUST)
  [-32022, 400], // unsupported protocol version (MUST)
  [-32601, 404], // unknown or unadvertised method (MUST, with the JSON-RPC body)
  [-31403, 403], // Decorum's forbidden: a guard refused the call (A-08: 403 for insufficient permission)
  [-31429, 429], // Decorum's rate limit: with Retry-After (headers/error-headers.ts)
]);

/**
 * The HTTP status of a JSON-RPC error response.
 *
 * `-32602` and `-32603` depend on where they arose. From the request itself (a missing `_meta`,
 * a bad log level) `-32602` is a 400, as the spec requires for `_meta`. From routing or the
 * handler (unknown tool, bad cursor, resource not found, internal failure) they answer 200, as the
 * digest recommends (H-40): once an SSE stream has begun the status is 200 anyway, and a 400 with an
 * ordinary code can make dual-era clients believe this is not a modern server and fall back to
 * `initialize`. An internal error before routing can only be a transport bug: 500.
 */
export function errorStatus(code: number, origin: ErrorOrigin): number {
  const fixed = FIXED.get(code);
  if (fixed !== undefined) return fixed;
  if (origin === 'handler') return 200;
  return code === -32602 ? 400 : 500;
}

/** The pipeline's refusals: a guard's -31403 and the rate limit's -31429. */
const PIPELINE_REFUSALS: ReadonlySet<number> = new Set([-31403, -31429]);

/**
 * The HTTP status of a JSON-RPC error answered as JSON in a legacy (2025-11-25 and earlier)
 * session. 200, as the legacy era's servers have always answered (the official clients of those
 * revisions turn any other status into a transport error and lose the JSON-RPC error) — except
 * the pipeline's refusals, which keep their modern statuses: 403 (with the challenge where OAuth is
 * on, as the MCP authorization spec asks for insufficient permission) and 429 with `Retry-After`.
 * The 2025-11-25 transport fixes only the content type of an answer to a request, not its status.
 */
export function legacyErrorStatus(code: number): number {
  return PIPELINE_REFUSALS.has(code) ? FIXED.get(code)! : RESULT_STATUS;
}

/** Status of a result response (including tool results with `isError: true`). */
export const RESULT_STATUS = 200;

/** Status of an accepted notification: no body. */
export const NOTIFICATION_STATUS = 202;
