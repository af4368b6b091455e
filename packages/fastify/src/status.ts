/**
 * The HTTP statuses this transport decides itself: refusals made before a JSON-RPC message is
 * read, and the statuses of a result and an accepted notification. The status of a JSON-RPC error
 * response is its era codec's (`EraCodec.errorStatus` in core), which the answer writer asks.
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

/** Status of a result response (including tool results with `isError: true`). */
export const RESULT_STATUS = 200;

/** Status of an accepted notification: no body. */
export const NOTIFICATION_STATUS = 202;
