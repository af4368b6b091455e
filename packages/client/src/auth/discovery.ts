import { isJsonObject } from '@decorum/core/transport';
import * as oauth from 'oauth4webapi';
import { AuthorizationError } from './authorization-error.js';

/** The parts of RFC 9728 protected-resource metadata the client uses. */
export interface ProtectedResourceMetadata {
  readonly resource: string;
  readonly authorization_servers?: string[];
  readonly scopes_supported?: string[];
  readonly [key: string]: unknown;
}

/** oauth4webapi refuses plain HTTP; loopback servers (tests, local development) are the exception. */
export function isLoopback(url: URL): boolean {
  return url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]');
}

/** The canonical resource URI of an MCP server (RFC 8707): its URL without fragment, the key of its tokens. */
export function canonicalResource(serverUrl: URL): string {
  const url = new URL(serverUrl);
  url.hash = '';
  return url.href;
}

/** Whether metadata naming `resource` may serve `serverUrl`: same origin, and its path a prefix of the server's. */
export function resourceCovers(resource: string, serverUrl: URL): boolean {
  let named: URL;
  try {
    named = new URL(resource);
  } catch {
    return false;
  }
  if (named.origin !== serverUrl.origin) return false;
  const prefix = named.pathname.replace(/\/$/, '');
  const path = serverUrl.pathname.replace(/\/$/, '');
  return path === prefix || path.startsWith(`${prefix}/`);
}

async function getJson(url: URL, fetchImpl: typeof fetch): Promise<Record<string, unknown> | undefined> {
  const response = await fetchImpl(url, { headers: { accept: 'application/json' } });
  if (!response.ok) {
    await response.body?.cancel();
    return undefined;
  }
  const body: unknown = await response.json().catch(() => undefined);
  return isJsonObject(body) ? body : undefined;
}

/**
 * RFC 9728 discovery: the `resource_metadata` URL of the 401 challenge first, then the
 * path-inserted well-known URL, then the root one. The metadata must name this server.
 */
export async function discoverProtectedResource(serverUrl: URL, challengeUrl: string | undefined, fetchImpl: typeof fetch): Promise<ProtectedResourceMetadata> {
  const candidates: URL[] = [];
  if (challengeUrl) candidates.push(new URL(challengeUrl, serverUrl));
  const path = serverUrl.pathname.replace(/\/$/, '');
  if (path) candidates.push(new URL(`/.well-known/oauth-protected-resource${path}`, serverUrl));
  candidates.push(new URL('/.well-known/oauth-protected-resource', serverUrl));
  for (const candidate of candidates) {
    const metadata = await getJson(candidate, fetchImpl);
    if (!metadata) continue;
    if (typeof metadata.resource !== 'string' || !resourceCovers(metadata.resource, serverUrl)) {
      throw new AuthorizationError(
        `The protected-resource metadata at ${candidate.href} names resource ${JSON.stringify(metadata.resource)}, not ${canonicalResource(serverUrl)}: refusing to send it a token`,
      );
    }
    return metadata as unknown as ProtectedResourceMetadata;
  }
  throw new AuthorizationError(`No protected-resource metadata for ${serverUrl.href} (tried ${candidates.map((c) => c.href).join(', ')})`);
}

/**
 * RFC 8414 / OpenID Connect discovery in the order the MCP spec gives: for an issuer with a path,
 * OAuth path-inserted, OpenID path-inserted, OpenID path-appended; without a path, OAuth then
 * OpenID. The metadata's `issuer` must be the issuer asked for (oauth4webapi checks it).
 */
export async function discoverAuthorizationServer(issuer: string, fetchImpl: typeof fetch): Promise<oauth.AuthorizationServer> {
  const issuerUrl = new URL(issuer);
  const path = issuerUrl.pathname.replace(/\/$/, '');
  const candidates = path
    ? [`/.well-known/oauth-authorization-server${path}`, `/.well-known/openid-configuration${path}`, `${path}/.well-known/openid-configuration`]
    : ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'];
  for (const candidate of candidates) {
    const response = await fetchImpl(new URL(candidate, issuerUrl), { headers: { accept: 'application/json' } });
    if (!response.ok) {
      await response.body?.cancel();
      continue;
    }
    try {
      return await oauth.processDiscoveryResponse(issuerUrl, response);
    } catch (error) {
      throw new AuthorizationError(
        `The authorization server metadata at ${new URL(candidate, issuerUrl).href} is not valid for issuer ${issuer}: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }
  throw new AuthorizationError(`No authorization server metadata for issuer ${issuer}`);
}
