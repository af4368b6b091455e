import { DecorumStartupError, StartupErrorCode } from '@decorum/core';

/**
 * Which browser origins may call the endpoint: exact origins (`https://app.example.com`),
 * patterns tested against the `Origin` header, or a predicate. A request without `Origin`
 * (a non-browser client) is always served; a present, unlisted one is refused with 403.
 */
export type AllowedOrigins = ReadonlyArray<string | RegExp> | ((origin: string) => boolean);

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * True for `http(s)://localhost`, `127.0.0.1` or `[::1]` on any port: the default allowlist,
 * which keeps a DNS-rebinding page (whose Origin is its own foreign host) away from a local server.
 * Combine it with your own: `allowedOrigins: (o) => isLocalOrigin(o) || o === 'https://app.example.com'`.
 */
export function isLocalOrigin(origin: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // includes the opaque origin "null"
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTS.has(url.hostname);
}

/** `scheme://host[:port]` in canonical form (lower-case host, default port dropped), or undefined. */
function normalized(origin: string): string | undefined {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return undefined;
  }
  const bare = url.pathname === '/' && url.search === '' && url.hash === '' && url.username === '' && url.password === '';
  return bare && url.origin !== 'null' ? url.origin : undefined;
}

/** Builds the Origin test once, at registration; listed origins that are not origins fail start-up. */
export function originPolicy(allowed: AllowedOrigins | undefined): (origin: string) => boolean {
  if (allowed === undefined) return isLocalOrigin;
  if (typeof allowed === 'function') return allowed;
  const exact = new Set<string>();
  const patterns: RegExp[] = [];
  for (const entry of allowed) {
    if (entry instanceof RegExp) {
      patterns.push(entry);
      continue;
    }
    const origin = normalized(entry);
    if (origin === undefined) {
      throw new DecorumStartupError(
        StartupErrorCode.INVALID_ORIGIN,
        `allowedOrigins: ${JSON.stringify(entry)} is not an origin; write scheme://host[:port], e.g. "https://app.example.com"`,
      );
    }
    exact.add(origin);
  }
  return (origin) => {
    const key = normalized(origin);
    return (key !== undefined && exact.has(key)) || patterns.some((p) => p.test(origin));
  };
}
