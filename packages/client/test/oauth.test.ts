import { jest } from '@jest/globals';
import { AuthorizationError, connect, MemoryTokenStore, OAuthClient, type AuthorizeStep } from '@decorum/client';
import { decodeJwt } from 'jose';
import { WeatherServer } from '../../../examples/weather/src/weather.js';
import { freePort, startAuthorizationServer } from './support/authorization-server.js';
import type { HttpServer } from './support/servers.js';

const REDIRECT = 'http://127.0.0.1:9/callback';

/** The user approves at once: follow the authorization server's redirect without a browser. */
const followRedirect: AuthorizeStep = async (url) => {
  const response = await fetch(url, { redirect: 'manual' });
  await response.body?.cancel();
  return new URL(response.headers.get('location')!, url);
};

/** `followRedirect`, noting each authorization URL the user was shown in `shown`. */
const userStep =
  (shown: URL[]): AuthorizeStep =>
  (url, redirectUri) => (shown.push(url), followRedirect(url, redirectUri));

/** A plain `fetch` noting the HTTP status of each answer of the resource server in `statuses`. */
const noteStatuses =
  (statuses: number[]): typeof fetch =>
  async (input, init) => {
    const response = await fetch(input, init);
    statuses.push(response.status);
    return response;
  };

/** Connects through `oauth`, calls one tool, and disconnects. */
async function callWeather(url: string, oauth: OAuthClient, base?: typeof fetch): Promise<void> {
  const client = await connect({ url, fetch: oauth.fetch(base) });
  try {
    expect((await client.callTool('weather_current', { location: 'London' })).isError).toBeFalsy();
  } finally {
    await client.close();
  }
}

/** The weather example behind the Fastify plugin as an OAuth protected resource (RFC 9728) trusting `issuer`. */
async function listenAt(port: number, issuer: string, jwks: { keys: object[] }, resourcePath: string): Promise<HttpServer> {
  const Fastify = (await import('fastify')).default;
  const { mcpPlugin } = await import('@decorum/fastify');
  const app = Fastify({ logger: false, forceCloseConnections: true });
  await app.register(mcpPlugin, {
    servers: [WeatherServer],
    auth: { resource: `http://127.0.0.1:${port}${resourcePath}`, authorizationServers: [issuer], jwt: { jwks: jwks as never } },
  });
  await app.listen({ host: '127.0.0.1', port });
  return { app, url: `http://127.0.0.1:${port}/mcp`, close: () => app.close() };
}

describe('OAuth 2.1 against a local authorization server', () => {
  let as: Awaited<ReturnType<typeof startAuthorizationServer>>;
  let rs: HttpServer;
  beforeAll(async () => {
    as = await startAuthorizationServer();
    rs = await listenAt(await freePort(), as.issuer, as.jwks, '/mcp');
  });
  afterAll(async () => {
    await rs.close();
    await as.close();
  });

  test('discovery from the 401, PKCE, resource parameter: the call succeeds with a token for this resource', async () => {
    const store = new MemoryTokenStore();
    const oauth = new OAuthClient(new URL(rs.url), { redirectUri: REDIRECT, authorize: followRedirect, store });
    const client = await connect({ url: rs.url, fetch: oauth.fetch() });
    try {
      const result = await client.callTool('weather_current', { location: 'London' });
      expect(result.isError).toBeFalsy();
    } finally {
      await client.close();
    }
    const stored = store.get(rs.url)!;
    expect(stored.issuer).toBe(as.issuer);
    expect(decodeJwt(stored.accessToken).aud).toBe(rs.url);
    expect(as.tokenRequests.at(-1)).toMatchObject({ grant_type: 'authorization_code', resource: rs.url, code_verifier: expect.any(String) });
  });

  test('a redirect carrying another state (a stolen or forged response) is refused before the token endpoint', async () => {
    const before = as.tokenRequests.length;
    const forged: AuthorizeStep = async (url, redirectUri) => {
      const real = await followRedirect(url, redirectUri);
      const swapped = new URL(real);
      swapped.searchParams.set('state', 'state-of-another-session');
      return swapped;
    };
    const oauth = new OAuthClient(new URL(rs.url), { redirectUri: REDIRECT, authorize: forged });
    await expect(connect({ url: rs.url, fetch: oauth.fetch() })).rejects.toThrow(AuthorizationError);
    await expect(connect({ url: rs.url, fetch: oauth.fetch() })).rejects.toThrow(/authorization response was refused.*state/i);
    expect(as.tokenRequests.length).toBe(before);
  });

  test('a code redeemed a second time (same code, same verifier) is refused as reused, and the client says so', async () => {
    // Fixed randomness, so both flows draw the same state and PKCE verifier: the second token
    // request is an exact copy of the first, and only the reuse of the code can be refused.
    const fixed = jest.spyOn(globalThis.crypto, 'getRandomValues').mockImplementation(<T extends ArrayBufferView | null>(array: T): T => {
      if (array) new Uint8Array(array.buffer, array.byteOffset, array.byteLength).fill(7);
      return array;
    });
    try {
      let firstCode: string | undefined;
      const replaying: AuthorizeStep = async (url, redirectUri) => {
        const real = new URL(await followRedirect(url, redirectUri));
        firstCode ??= real.searchParams.get('code')!;
        real.searchParams.set('code', firstCode);
        return real;
      };
      // One registered client for both flows: the replayed request is the first one, byte for byte.
      const client = { clientId: 'replayed-client', tokenEndpointAuthMethod: 'none' as const };
      await callWeather(rs.url, new OAuthClient(new URL(rs.url), { redirectUri: REDIRECT, authorize: replaying, client }));
      const replay = connect({ url: rs.url, fetch: new OAuthClient(new URL(rs.url), { redirectUri: REDIRECT, authorize: replaying, client }).fetch() });
      await expect(replay).rejects.toBeInstanceOf(AuthorizationError);
      await expect(replay).rejects.toThrow(/refused the authorization code: invalid_grant: authorization code already used$/);
      const [first, second] = as.tokenRequests.slice(-2);
      expect(second).toEqual(first);
    } finally {
      fixed.mockRestore();
    }
  });

  test('a 401 for an expired access token is answered with a refresh naming the resource: no user step', async () => {
    const store = new MemoryTokenStore();
    const shown: URL[] = [];
    const oauth = new OAuthClient(new URL(rs.url), { redirectUri: REDIRECT, authorize: userStep(shown), store });
    await callWeather(rs.url, oauth);
    const first = store.get(rs.url)!;
    expect(first.refreshToken).toEqual(expect.any(String));
    // The token expired on the server's clock; the store still thinks it valid (its expiresAt has not passed).
    store.set(rs.url, { ...first, accessToken: await as.accessToken(rs.url, first.clientId, -60) });
    const statuses: number[] = [];
    await callWeather(rs.url, oauth, noteStatuses(statuses));
    expect(statuses[0]).toBe(401);
    expect(shown).toHaveLength(1);
    expect(as.tokenRequests.at(-1)).toEqual(
      expect.objectContaining({ grant_type: 'refresh_token', refresh_token: first.refreshToken, client_id: first.clientId, resource: rs.url }),
    );
    const renewed = store.get(rs.url)!;
    expect(renewed.accessToken).not.toBe(first.accessToken);
    expect(renewed.refreshToken).toEqual(expect.any(String));
    expect(renewed.refreshToken).not.toBe(first.refreshToken);
  });

  test('a refused refresh falls back to the full authorization flow', async () => {
    const store = new MemoryTokenStore();
    const shown: URL[] = [];
    const oauth = new OAuthClient(new URL(rs.url), { redirectUri: REDIRECT, authorize: userStep(shown), store });
    await callWeather(rs.url, oauth);
    const first = store.get(rs.url)!;
    as.revokeRefreshTokens();
    store.set(rs.url, { ...first, accessToken: await as.accessToken(rs.url, first.clientId, -60) });
    const before = as.tokenRequests.length;
    await callWeather(rs.url, oauth);
    expect(as.tokenRequests.slice(before).map((r) => r.grant_type)).toEqual(['refresh_token', 'authorization_code']);
    expect(shown).toHaveLength(2);
  });

  test('a token past its expiresAt is refreshed before it is sent: the server never answers 401', async () => {
    const store = new MemoryTokenStore();
    const shown: URL[] = [];
    await callWeather(rs.url, new OAuthClient(new URL(rs.url), { redirectUri: REDIRECT, authorize: userStep(shown), store }));
    const first = store.get(rs.url)!;
    store.set(rs.url, { ...first, expiresAt: Date.now() - 1000 });
    // A new OAuthClient (a new run of the host): it finds the metadata at the well-known URLs.
    const statuses: number[] = [];
    await callWeather(rs.url, new OAuthClient(new URL(rs.url), { redirectUri: REDIRECT, authorize: userStep(shown), store }), noteStatuses(statuses));
    expect(statuses).not.toContain(401);
    expect(shown).toHaveLength(1);
    expect(as.tokenRequests.at(-1)).toEqual(expect.objectContaining({ grant_type: 'refresh_token', refresh_token: first.refreshToken, resource: rs.url }));
    expect(store.get(rs.url)!.expiresAt).toBeGreaterThan(Date.now());
  });

  test('a token held for another resource is never sent to this one', async () => {
    const store = new MemoryTokenStore();
    store.set('http://127.0.0.1:1/other-mcp', { issuer: as.issuer, clientId: 'c', accessToken: 'token-for-another-resource' });
    const sent: (string | null)[] = [];
    const recording: typeof fetch = async (input, init) => {
      sent.push(new Headers(init?.headers).get('authorization'));
      return fetch(input, init);
    };
    const oauth = new OAuthClient(new URL(rs.url), { redirectUri: REDIRECT, authorize: followRedirect, store });
    const client = await connect({ url: rs.url, fetch: oauth.fetch(recording) });
    await client.close();
    expect(sent[0]).toBeNull();
    expect(sent).not.toContain('Bearer token-for-another-resource');
  });

  test('protected-resource metadata naming another resource is refused: no authorization, no token', async () => {
    const other = await listenAt(await freePort(), as.issuer, as.jwks, '/elsewhere');
    let asked = false;
    const oauth = new OAuthClient(new URL(other.url), { redirectUri: REDIRECT, authorize: async (url, r) => ((asked = true), followRedirect(url, r)) });
    try {
      await expect(connect({ url: other.url, fetch: oauth.fetch() })).rejects.toThrow(/names resource .*elsewhere.*refusing to send it a token/);
      expect(asked).toBe(false);
    } finally {
      await other.close();
    }
  });
});

describe('issuer checks', () => {
  test('an authorization response from another issuer is refused (RFC 9207 iss), and no token is requested', async () => {
    const as = await startAuthorizationServer({ issInRedirect: 'other' });
    const rs = await listenAt(await freePort(), as.issuer, as.jwks, '/mcp');
    try {
      const oauth = new OAuthClient(new URL(rs.url), { redirectUri: REDIRECT, authorize: followRedirect });
      await expect(connect({ url: rs.url, fetch: oauth.fetch() })).rejects.toThrow(/authorization response was refused.*iss/i);
      expect(as.tokenRequests).toHaveLength(0);
    } finally {
      await rs.close();
      await as.close();
    }
  });

  test('authorization server metadata naming another issuer than the one asked for is refused: no user step, no registration', async () => {
    const as = await startAuthorizationServer({ metadataIssuer: 'other' });
    const rs = await listenAt(await freePort(), as.issuer, as.jwks, '/mcp');
    const shown: URL[] = [];
    try {
      const attempt = connect({ url: rs.url, fetch: new OAuthClient(new URL(rs.url), { redirectUri: REDIRECT, authorize: userStep(shown) }).fetch() });
      await expect(attempt).rejects.toBeInstanceOf(AuthorizationError);
      await expect(attempt).rejects.toThrow(
        `The authorization server metadata at ${as.issuer}/.well-known/oauth-authorization-server is not valid for issuer ${as.issuer}`,
      );
      expect(shown).toEqual([]);
      expect(as.registrations).toEqual([]);
      expect(as.tokenRequests).toEqual([]);
    } finally {
      await rs.close();
      await as.close();
    }
  });

  test('the resource moves to another authorization server: no refresh token or client id of the old one goes to the new one, a fresh flow runs', async () => {
    const [as1, as2] = [await startAuthorizationServer(), await startAuthorizationServer()];
    const port = await freePort();
    const store = new MemoryTokenStore();
    const shown: URL[] = [];
    let rs = await listenAt(port, as1.issuer, as1.jwks, '/mcp');
    // The resource server restarts at the same port: no kept-alive connection to the old one may carry a request to the new one.
    const closing: typeof fetch = (input, init) =>
      fetch(input, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers)), connection: 'close' } });
    try {
      await callWeather(rs.url, new OAuthClient(new URL(rs.url), { redirectUri: REDIRECT, authorize: userStep(shown), store, fetch: closing }), closing);
      const old = store.get(rs.url)!;
      expect(old).toMatchObject({ issuer: as1.issuer, refreshToken: expect.any(String) });
      // The same resource (same URL, so the same store entry) now trusts only the second server.
      await rs.close();
      rs = await listenAt(port, as2.issuer, as2.jwks, '/mcp');
      const askedOfAs1 = as1.tokenRequests.length;
      await callWeather(rs.url, new OAuthClient(new URL(rs.url), { redirectUri: REDIRECT, authorize: userStep(shown), store }));
      expect(store.get(rs.url)).toMatchObject({ issuer: as2.issuer, clientId: as2.registrations[0] });
      expect(as2.tokenRequests.map((r) => r.grant_type)).toEqual(['authorization_code']);
      expect(as2.registrations).toHaveLength(1);
      const seenByAs2 = JSON.stringify([as2.authorizeRequests, as2.tokenRequests]);
      expect(seenByAs2).not.toContain(old.clientId);
      expect(seenByAs2).not.toContain(old.refreshToken);
      expect(shown.map((url) => url.origin)).toEqual([new URL(as1.issuer).origin, new URL(as2.issuer).origin]);
      expect(as1.tokenRequests).toHaveLength(askedOfAs1);
    } finally {
      await rs.close();
      await as1.close();
      await as2.close();
    }
  });
});
