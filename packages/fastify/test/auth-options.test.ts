import Fastify from 'fastify';
import { DecorumStartupError, McpServer, Tool, type AuthInfo, type ToolContext } from '@decorum/core';
import { mcpPlugin, type McpAuthOptions } from '@decorum/fastify';
import { importJWK } from 'jose';
import { rpc, send } from './support/http.js';
import { injectApp, type TestApp } from './support/app.js';
import { AuthServerFixture } from './support/auth-fixture.js';

@McpServer({ name: 'who', version: '1.0.0' })
class WhoServer {
  @Tool({ description: 'Who is calling', input: null })
  whoami(_args: unknown, ctx: ToolContext) {
    ctx.progress(1, 1);
    return ctx.auth === undefined ? 'anonymous' : `${ctx.auth.principal}:${ctx.auth.scopes.join(',')}`;
  }

  @Tool({ description: 'Needs admin', input: null, scopes: ['admin'] })
  admin(): string {
    return 'ok';
  }
}

const RESOURCE = 'http://127.0.0.1/mcp';
let as: AuthServerFixture;
beforeAll(async () => {
  as = await AuthServerFixture.start(RESOURCE);
});
afterAll(() => as.close());

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
const text = (res: { json: any; events: any[] }) => (res.json ?? res.events.at(-1)).result.content[0].text;

describe('key sources', () => {
  test('a local JWKS (jwt.jwks): valid → 200, other key → 401; no JWKS fetch', async () => {
    const t = await injectApp({ servers: [WhoServer], auth: { resource: RESOURCE, authorizationServers: [as.issuer], jwt: { jwks: as.jwks } } });
    try {
      const hits = as.jwksHits;
      expect(text(await rpc(t.url, 1, 'tools/call', { name: 'whoami', arguments: {} }, bearer(await as.token({ scope: 'a b' }))))).toBe('alice:a,b');
      expect((await rpc(t.url, 1, 'tools/list', {}, bearer(await as.token({ iss: 'https://x.test' })))).status).toBe(401);
      expect(as.jwksHits).toBe(hits);
    } finally {
      await t.close();
    }
  });

  test('one key (jwt.key) and an explicit issuer and typ', async () => {
    const key = await importJWK(as.key.publicJwk, 'RS256');
    const t = await injectApp({
      servers: [WhoServer],
      auth: { resource: RESOURCE, authorizationServers: ['https://as.example.test/tenant'], jwt: { key, issuer: as.issuer, typ: 'at+jwt' } },
    });
    try {
      expect((await rpc(t.url, 1, 'tools/list', {}, bearer(await as.token()))).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  test('algorithms: a token whose alg is not allowed → 401', async () => {
    const t = await injectApp({
      servers: [WhoServer],
      auth: { resource: RESOURCE, authorizationServers: [as.issuer], jwt: { jwks: as.jwks, algorithms: ['ES256'] } },
    });
    try {
      const res = await rpc(t.url, 1, 'tools/list', {}, bearer(await as.token()));
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toContain('error_description="the access token\'s signature algorithm is not accepted (accepted: ES256)"');
    } finally {
      await t.close();
    }
  });

  test("an unreachable JWKS is the server's failure: 500, not 401", async () => {
    const t = await injectApp({
      servers: [WhoServer],
      auth: { resource: RESOURCE, authorizationServers: [as.issuer], jwt: { jwksUri: 'http://127.0.0.1:1/jwks' } },
    });
    try {
      const res = await rpc(t.url, 1, 'tools/list', {}, bearer(await as.token()));
      expect(res.status).toBe(500);
      expect(res.json.error.code).toBe(-32603);
    } finally {
      await t.close();
    }
  });
});

describe('a verify(token) hook (introspection)', () => {
  const known: Record<string, AuthInfo> = {
    'opaque-alice': { principal: 'alice', scopes: ['admin'], claims: { aud: RESOURCE } },
    'opaque-elsewhere': { principal: 'eve', scopes: ['admin'], claims: { aud: 'https://elsewhere.test' } },
  };
  let t: TestApp;
  beforeAll(async () => {
    t = await injectApp({
      servers: [WhoServer],
      auth: {
        resource: RESOURCE,
        authorizationServers: [as.issuer],
        verify: async (token) => {
          if (token === 'boom') throw new Error('introspection endpoint down');
          return known[token];
        },
      },
    });
  });
  afterAll(() => t.close());

  test('what the hook returns becomes ctx.auth', async () => {
    expect(text(await rpc(t.url, 1, 'tools/call', { name: 'admin', arguments: {} }, bearer('opaque-alice')))).toBe('ok');
    expect(text(await rpc(t.url, 1, 'tools/call', { name: 'whoami', arguments: {} }, bearer('opaque-alice')))).toBe('alice:admin');
  });

  test('undefined → 401 invalid_token', async () => {
    const res = await rpc(t.url, 1, 'tools/list', {}, bearer('opaque-unknown'));
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe(
      'Bearer error="invalid_token", resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp", error_description="the access token is not valid (expired, revoked or unknown)"',
    );
  });

  test('claims.aud naming another resource → 401 even though the hook accepted it', async () => {
    expect((await rpc(t.url, 1, 'tools/list', {}, bearer('opaque-elsewhere'))).status).toBe(401);
  });

  test('a hook that throws → 500', async () => {
    expect((await rpc(t.url, 1, 'tools/list', {}, bearer('boom'))).status).toBe(500);
  });
});

describe('the pipeline around auth', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await injectApp({
      servers: [WhoServer],
      prefix: '/api',
      auth: { resource: 'https://public.example.test/tools/mcp', authorizationServers: [as.issuer], jwt: { jwks: as.jwks } },
    });
  });
  afterAll(() => t.close());

  test("metadata is served at the root form, the mount path (/api/mcp) and the resource's path (/tools/mcp)", async () => {
    for (const path of ['', '/api/mcp', '/tools/mcp']) {
      const res = await send(`${t.base}/.well-known/oauth-protected-resource${path}`, { method: 'GET' });
      expect(res.status).toBe(200);
      expect(res.json.resource).toBe('https://public.example.test/tools/mcp');
      expect(res.json.scopes_supported).toEqual(['admin']);
    }
    expect((await send(`${t.base}/api/.well-known/oauth-protected-resource`, { method: 'GET' })).status).toBe(404);
  });

  test('the challenge names the metadata URL of the public resource', async () => {
    const res = await rpc(t.url, 1, 'tools/list');
    expect(res.headers['www-authenticate']).toBe('Bearer resource_metadata="https://public.example.test/.well-known/oauth-protected-resource/tools/mcp"');
  });

  test('Origin (403) and method (405) come before auth; auth before Content-Type (415)', async () => {
    expect((await send(t.url, { method: 'PUT' })).status).toBe(405);
    expect((await rpc(t.url, 1, 'tools/list', {}, { headers: { origin: 'https://evil.example' } })).status).toBe(403);
    expect((await send(t.url, { headers: { 'content-type': 'text/plain' }, body: 'x' })).status).toBe(401);
  });

  test('ctx.auth reaches SSE responses too', async () => {
    const res = await rpc(
      t.url,
      1,
      'tools/call',
      { name: 'whoami', arguments: {} },
      { progressToken: 'p', headers: { authorization: `Bearer ${await as.token({ aud: 'https://public.example.test/tools/mcp', scope: 's' })}` } },
    );
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(text(res)).toBe('alice:s');
  });
});

describe('several protected mounts on one app', () => {
  test('each path-inserted URI describes its own resource; the root form the first mount', async () => {
    const t = await injectApp(
      { servers: [WhoServer], path: '/a', auth: { resource: 'https://x.test/a', authorizationServers: [as.issuer], jwt: { jwks: as.jwks } } },
      (app) => {
        app.register(mcpPlugin, {
          servers: [WhoServer],
          path: '/b',
          auth: { resource: 'https://x.test/b', authorizationServers: [as.issuer], jwt: { jwks: as.jwks } },
        });
      },
    );
    try {
      const get = async (path: string) => (await send(`${t.base}/.well-known/oauth-protected-resource${path}`, { method: 'GET' })).json.resource;
      expect(await get('/a')).toBe('https://x.test/a');
      expect(await get('/b')).toBe('https://x.test/b');
      expect(await get('')).toBe('https://x.test/a');
      const b = await rpc(`${t.base}/b`, 1, 'tools/list', {}, bearer(await as.token({ aud: 'https://x.test/a' })));
      expect(b.status).toBe(401); // a token for /a is not one for /b
    } finally {
      await t.close();
    }
  });
});

describe('without auth nothing changes', () => {
  test('ctx.auth is undefined and decorator scopes are not enforced', async () => {
    const t = await injectApp({ servers: [WhoServer] });
    try {
      expect(text(await rpc(t.url, 1, 'tools/call', { name: 'whoami', arguments: {} }))).toBe('anonymous');
      expect(text(await rpc(t.url, 1, 'tools/call', { name: 'admin', arguments: {} }))).toBe('ok');
      expect((await send(`${t.base}/.well-known/oauth-protected-resource`, { method: 'GET' })).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});

describe('start-up checks', () => {
  const good: McpAuthOptions = { resource: RESOURCE, authorizationServers: ['https://as.test'], jwt: { jwksUri: 'https://as.test/jwks' } };
  async function startupError(auth: unknown, nested = false): Promise<string> {
    const app = Fastify({ logger: false });
    try {
      if (nested) await app.register(async (api) => api.register(mcpPlugin, { servers: [WhoServer], auth: auth as McpAuthOptions }), { prefix: '/api' });
      else await app.register(mcpPlugin, { servers: [WhoServer], auth: auth as McpAuthOptions });
      await app.ready();
    } catch (error) {
      expect(error).toBeInstanceOf(DecorumStartupError);
      return (error as Error).message;
    } finally {
      await app.close();
    }
    throw new Error('started');
  }

  test.each<[string, unknown, RegExp]>([
    ['no authorization server', { ...good, authorizationServers: [] }, /at least one authorization server/],
    ['a relative resource', { ...good, resource: '/mcp' }, /not an absolute URI/],
    ['a resource with a fragment', { ...good, resource: 'https://x.test/mcp#a' }, /fragment/],
    ['neither jwt nor verify', { resource: RESOURCE, authorizationServers: ['https://as.test'] }, /exactly one of jwt .* or verify/],
    ['both jwt and verify', { ...good, verify: () => undefined }, /exactly one of jwt/],
    ['two key sources', { ...good, jwt: { jwksUri: 'https://as.test/jwks', jwks: { keys: [] } } }, /exactly one of jwksUri/],
    ['alg none allowed', { ...good, jwt: { jwksUri: 'https://as.test/jwks', algorithms: ['RS256', 'none'] } }, /"none" is never accepted/],
    ['a bad required scope', { ...good, requiredScopes: ['a b'] }, /not a valid OAuth scope/],
  ])('%s → DecorumStartupError', async (_name, auth, message) => {
    expect(await startupError(auth)).toMatch(message);
  });

  test('registered inside a prefixed context → an error that says how to fix it', async () => {
    expect(await startupError(good, true)).toMatch(/register it on the root app with the prefix option/);
  });

  test('a decorator scope that cannot go into a header → DecorumStartupError', async () => {
    class Bad {
      @Tool({ input: null, scopes: ['has"quote'] }) t(): string {
        return '';
      }
    }
    const app = Fastify({ logger: false });
    await expect(app.register(mcpPlugin, { servers: [Bad] }).ready()).rejects.toThrow(/not a valid OAuth scope/);
    await app.close();
  });
});
