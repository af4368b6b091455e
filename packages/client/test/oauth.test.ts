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

/** The weather example behind the Fastify plugin as an OAuth protected resource (RFC 9728) trusting `issuer`. */
async function listenAt(port: number, issuer: string, jwks: { keys: object[] }, resourcePath: string): Promise<HttpServer> {
  const Fastify = (await import('fastify')).default;
  const { mcpPlugin } = await import('@decorum/fastify');
  const app = Fastify({ logger: false, forceCloseConnections: true });
  await app.register(mcpPlugin, { servers: [WeatherServer], auth: { resource: `http://127.0.0.1:${port}${resourcePath}`, authorizationServers: [issuer], jwt: { jwks: jwks as never } } });
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

  test('a code replayed a second time is refused by the server, and the client says so', async () => {
    let firstCode: string | undefined;
    const replaying: AuthorizeStep = async (url, redirectUri) => {
      const real = new URL(await followRedirect(url, redirectUri));
      if (!firstCode) {
        firstCode = real.searchParams.get('code')!;
        return real;
      }
      real.searchParams.set('code', firstCode); // the state is this flow's: only the code is old
      return real;
    };
    const first = await connect({ url: rs.url, fetch: new OAuthClient(new URL(rs.url), { redirectUri: REDIRECT, authorize: replaying }).fetch() });
    await first.close();
    const replay = connect({ url: rs.url, fetch: new OAuthClient(new URL(rs.url), { redirectUri: REDIRECT, authorize: replaying }).fetch() });
    await expect(replay).rejects.toBeInstanceOf(AuthorizationError);
    await expect(connect({ url: rs.url, fetch: new OAuthClient(new URL(rs.url), { redirectUri: REDIRECT, authorize: replaying }).fetch() })).rejects.toThrow(/refused the authorization code.*invalid_grant|already used/);
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

describe('an authorization response from another issuer', () => {
  test('is refused (RFC 9207 iss), and no token is requested', async () => {
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
});
