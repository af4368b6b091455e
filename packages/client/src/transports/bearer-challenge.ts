import type { BearerChallenge } from '../errors.js';

// auth-param = token "=" ( token / quoted-string ), RFC 9110 §11.2.
const PARAM = /([A-Za-z0-9!#$%&'*+.^_`|~-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g;

/** Reads a `WWW-Authenticate: Bearer …` header (RFC 6750 §3) into its parameters. */
export function parseBearerChallenge(header: string | null): BearerChallenge {
  if (!header) return {};
  const bearer = header.replace(/^\s*Bearer\s*/i, '');
  const params: Record<string, string> = {};
  for (const match of bearer.matchAll(PARAM)) params[match[1].toLowerCase()] = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : match[3];
  return {
    ...(params.error && { error: params.error }),
    ...(params.scope && { scopes: params.scope.split(/\s+/).filter(Boolean) }),
    ...(params.resource_metadata && { resourceMetadata: params.resource_metadata }),
    ...(params.error_description && { description: params.error_description }),
  };
}
