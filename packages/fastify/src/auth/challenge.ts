import { HttpRefusal } from '../refusal.js';

/** RFC 6750 §3 error codes used in a `WWW-Authenticate: Bearer` challenge. */
export type BearerError = 'invalid_request' | 'invalid_token' | 'insufficient_scope';

/** What a `WWW-Authenticate: Bearer` challenge says (RFC 6750 §3, RFC 9728 `resource_metadata`). */
export interface Challenge {
  readonly error?: BearerError;
  /** Every scope the operation needs (space-separated in the header). */
  readonly scopes?: readonly string[];
  readonly resourceMetadata: string;
  readonly description?: string;
}

/** Keeps a text inside an RFC 6750 quoted value: printable ASCII without `"` and `\`. */
export function quotable(text: string): string {
  return text
    .replace(/["\\]/g, "'")
    .replace(/[^\x20-\x7E]/g, '')
    .slice(0, 300);
}

/**
 * The `WWW-Authenticate` value, parameters always in this order:
 * `Bearer error="…", scope="…", resource_metadata="…", error_description="…"` (absent ones left out).
 */
export function bearerChallenge(challenge: Challenge): string {
  const params: string[] = [];
  if (challenge.error) params.push(`error="${challenge.error}"`);
  if (challenge.scopes && challenge.scopes.length > 0) params.push(`scope="${challenge.scopes.join(' ')}"`);
  params.push(`resource_metadata="${challenge.resourceMetadata}"`);
  if (challenge.description) params.push(`error_description="${quotable(challenge.description)}"`);
  return `Bearer ${params.join(', ')}`;
}

/** A 401 (no usable token) or 403 (insufficient scope) with its challenge and a JSON-RPC message. */
export function authRefusal(kind: 'unauthorized' | 'insufficient-scope', message: string, challenge: Challenge): HttpRefusal {
  return new HttpRefusal(kind, message, { 'www-authenticate': bearerChallenge(challenge) });
}
