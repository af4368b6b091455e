import { McpServer, Prompt, Resource, Tool, type ToolContext } from '@decorum/core';
import { Type } from 'typebox';
import { rpc, send, standardHeaders, body as requestBody, withHeaders } from './support/http.js';
import { LogCapture, injectApp, type TestApp } from './support/app.js';
import { AuthServerFixture, signingKey } from './support/auth-fixture.js';

const RESOURCE = 'https://mcp.example.test/mcp';
const PRM_URL = 'https://mcp.example.test/.well-known/oauth-protected-resource/mcp';
const Note = Type.Object({ text: Type.String() });

@McpServer({ name: 'notes', version: '1.0.0' })
class NotesServer {
  @Tool({ description: 'Who is calling', input: null })
  whoami(_args: unknown, ctx: ToolContext) {
    return { principal: ctx.auth?.principal ?? null, scopes: ctx.auth?.scopes ?? null, iss: ctx.auth?.claims.iss ?? null };
  }

  @Tool({ description: 'Adds a note', input: Note, scopes: ['notes:write'] })
  notes_add(args: { text: string }) {
    return `added ${args.text}`;
  }

  @Resource({ uri: 'notes://all', mimeType: 'text/plain', scopes: ['notes:read'] })
  all(): string {
    return 'every note';
  }

  @Resource({ uriTemplate: 'notes://{id}', mimeType: 'text/plain', scopes: ['notes:read'] })
  one({ id }: { id: string }): string {
    return `note ${id}`;
  }

  @Prompt({ description: 'Summarise the notes', input: null, scopes: ['notes:read', 'prompts:use'] })
  summarise(): string {
    return 'Summarise my notes.';
  }
}

let as: AuthServerFixture;
let t: TestApp;
const logs = new LogCapture();

beforeAll(async () => {
  as = await AuthServerFixture.start(RESOURCE);
  t = await injectApp(
    {
      servers: [NotesServer],
      auth: {
        resource: RESOURCE,
        authorizationServers: [as.issuer],
        requiredScopes: ['mcp:use'],
        resourceName: 'Secure notes',
        resourceDocumentation: 'https://docs.example.test/notes',
        jwt: { jwksUri: as.jwksUri },
      },
    },
    undefined,
    logs,
  );
});
afterAll(async () => {
  await t.close();
  await as.close();
});

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
const ALL = 'mcp:use notes:read notes:write prompts:use';

describe('protected resource metadata (RFC 9728; A-02, A-03, row 65)', () => {
  const expected = {
    resource: RESOURCE,
    authorization_servers: ['https://auth.example.test'],
    scopes_supported: ['mcp:use', 'notes:write', 'prompts:use', 'notes:read'].sort(),
    bearer_methods_supported: ['header'],
    resource_name: 'Secure notes',
    resource_documentation: 'https://docs.example.test/notes',
  };

  test.each(['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp'])(
    'GET %s, unauthenticated → 200 JSON with the document',
    async (path) => {
      const res = await send(`${t.base}${path}`, { method: 'GET' });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect({ ...res.json, scopes_supported: [...res.json.scopes_supported].sort() }).toEqual(expected);
    },
  );

  test("scopes_supported: the server-wide scopes first, then the decorators' in registry order, each once", async () => {
    const res = await send(`${t.base}/.well-known/oauth-protected-resource`, { method: 'GET' });
    expect(res.json.scopes_supported).toEqual(['mcp:use', 'notes:write', 'notes:read', 'prompts:use']);
  });
});

describe('401: no usable token (A-04, A-05, A-06, rows 65–66)', () => {
  test('no Authorization → 401, the exact challenge, a JSON-RPC error without id; the tool does not run', async () => {
    const res = await rpc(t.url, 1, 'tools/call', { name: 'whoami', arguments: {} });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe(`Bearer scope="mcp:use", resource_metadata="${PRM_URL}"`);
    expect(res.json).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: expect.stringContaining('requires an OAuth access token') } });
    expect(res.json.error.message).toContain('Authorization: Bearer <token>');
    expect(res.json.error.message).toContain(PRM_URL);
  });

  test('authentication comes before the body: a missing token on an unparseable body is still 401', async () => {
    const res = await send(t.url, { headers: { 'content-type': 'application/json' }, body: '{not json' });
    expect(res.status).toBe(401);
  });

  test('notifications are authenticated too', async () => {
    const message = { jsonrpc: '2.0', method: 'notifications/whatever' };
    const res = await send(t.url, { headers: { 'content-type': 'application/json' }, body: JSON.stringify(message) });
    expect(res.status).toBe(401);
  });

  async function refusedWith(token: string, description: RegExp) {
    const res = await rpc(t.url, 1, 'tools/call', { name: 'whoami', arguments: {} }, bearer(token));
    expect(res.status).toBe(401);
    const header = String(res.headers['www-authenticate']);
    expect(header).toMatch(
      new RegExp(`^Bearer error="invalid_token", scope="mcp:use", resource_metadata="${PRM_URL.replace(/[./]/g, '\\$&')}", error_description="[^"\\\\]+"$`),
    );
    expect(header).toMatch(description);
    expect(res.json).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: expect.stringMatching(/^Unauthorized: /) } });
    return res;
  }

  test('expired token (beyond the 30 s tolerance) → 401 invalid_token', async () => {
    const now = Math.floor(Date.now() / 1000);
    await refusedWith(await as.token({ scope: ALL, iat: now - 600, exp: now - 60 }), /expired at \d{4}-/);
  });

  test('expired by less than the clock tolerance → accepted', async () => {
    const now = Math.floor(Date.now() / 1000);
    const res = await rpc(t.url, 1, 'tools/call', { name: 'whoami', arguments: {} }, bearer(await as.token({ scope: ALL, exp: now - 10 })));
    expect(res.status).toBe(200);
  });

  test('not yet valid (nbf in the future) → 401 invalid_token', async () => {
    const now = Math.floor(Date.now() / 1000);
    await refusedWith(await as.token({ scope: ALL, nbf: now + 120 }), /not valid yet/);
  });

  test('a token without exp → 401', async () => {
    await refusedWith(await as.token({ scope: ALL, exp: undefined }), /no valid expiry/);
  });

  test('wrong audience (a token for another resource) → 401 invalid_token, naming the resource to ask for', async () => {
    const res = await refusedWith(await as.token({ scope: ALL, aud: 'https://other.example.test/mcp' }), /audience/);
    expect(res.json.error.message).toContain(`resource=${RESOURCE}`);
  });

  test('no audience at all → 401', async () => {
    await refusedWith(await as.token({ scope: ALL, aud: undefined }), /audience/);
  });

  test('audience in another case and with a trailing slash still names this resource (A-11)', async () => {
    const res = await rpc(
      t.url,
      1,
      'tools/call',
      { name: 'whoami', arguments: {} },
      bearer(await as.token({ scope: ALL, aud: ['https://other.example', 'HTTPS://MCP.Example.TEST/mcp/'] })),
    );
    expect(res.status).toBe(200);
  });

  test('wrong issuer → 401 invalid_token', async () => {
    await refusedWith(await as.token({ scope: ALL, iss: 'https://evil.example.test' }), /not issued by a trusted authorization server/);
  });

  test('alg: none (an unsigned token crafted by hand) → 401 invalid_token', async () => {
    await refusedWith(as.unsignedToken(), /algorithm is not accepted|not a well-formed/);
  });

  test('bad signature: signed by another key under the trusted kid → 401 invalid_token', async () => {
    const other = await signingKey('test-key-1');
    await refusedWith(await as.token({ scope: ALL }, { key: other }), /signature does not verify/);
  });

  test('signed by an unknown key (another kid) → 401 invalid_token', async () => {
    const other = await signingKey('attacker-key');
    await refusedWith(await as.token({ scope: ALL }, { key: other }), /no key of the authorization server matches/);
  });

  test('a tampered payload → 401', async () => {
    const [header, , signature] = (await as.token({ scope: 'mcp:use' })).split('.');
    const forged = Buffer.from(JSON.stringify({ iss: as.issuer, aud: RESOURCE, sub: 'root', exp: 9999999999, scope: ALL })).toString('base64url');
    await refusedWith(`${header}.${forged}.${signature}`, /signature does not verify/);
  });

  test('garbage in the Bearer slot → 401 invalid_token', async () => {
    await refusedWith('not-a-jwt', /not a well-formed signed JWT/);
  });

  test('another scheme (Basic) → 401 invalid_request', async () => {
    const res = await rpc(t.url, 1, 'tools/list', {}, { headers: { authorization: 'Basic YWxpY2U6c2VjcmV0' } });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe(
      `Bearer error="invalid_request", scope="mcp:use", resource_metadata="${PRM_URL}", error_description="use the Bearer scheme: Authorization: Bearer <token>"`,
    );
  });

  test('token only in ?access_token= → 401 invalid_request (refused, not used)', async () => {
    const token = await as.token({ scope: ALL });
    const message = requestBody(1, 'tools/call', { name: 'whoami', arguments: {} });
    const res = await send(`${t.url}?access_token=${token}`, { headers: standardHeaders(message), body: JSON.stringify(message) });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe(
      `Bearer error="invalid_request", scope="mcp:use", resource_metadata="${PRM_URL}", error_description="access tokens are accepted only in the Authorization header, never in the query string"`,
    );
    expect(res.json.error.message).toContain('access_token query parameter is refused');
  });

  test('a query-string token is refused even next to a valid Authorization header', async () => {
    const token = await as.token({ scope: ALL });
    const message = requestBody(1, 'tools/list');
    const res = await send(`${t.url}?access_token=${token}`, {
      headers: withHeaders(standardHeaders(message), { authorization: `Bearer ${token}` }),
      body: JSON.stringify(message),
    });
    expect(res.status).toBe(401);
  });
});

describe('valid tokens and ctx.auth', () => {
  test('a valid token → 200; the tool sees ctx.auth (principal = sub, scopes from "scope", claims)', async () => {
    const res = await rpc(t.url, 7, 'tools/call', { name: 'whoami', arguments: {} }, bearer(await as.token({ scope: 'mcp:use notes:read' })));
    expect(res.status).toBe(200);
    expect(res.json.id).toBe(7);
    expect(res.json.result.structuredContent ?? JSON.parse(res.json.result.content[0].text)).toEqual({
      principal: 'alice',
      scopes: ['mcp:use', 'notes:read'],
      iss: as.issuer,
    });
  });

  test('scopes from an "scp" array claim', async () => {
    const res = await rpc(
      t.url,
      1,
      'tools/call',
      { name: 'notes_add', arguments: { text: 'x' } },
      bearer(await as.token({ sub: 'bob', scp: ['mcp:use', 'notes:write'] })),
    );
    expect(res.status).toBe(200);
    expect(res.json.result.content[0].text).toBe('added x');
  });

  test('lists are public: a caller without notes:write still sees notes_add, cacheScope public', async () => {
    const res = await rpc(t.url, 1, 'tools/list', {}, bearer(await as.token({ scope: 'mcp:use' })));
    expect(res.status).toBe(200);
    expect(res.json.result.tools.map((tool: { name: string }) => tool.name)).toContain('notes_add');
    expect(res.json.result.cacheScope).toBe('public');
  });

  test('the JWKS is fetched once and cached across requests', async () => {
    expect(as.jwksHits).toBe(1);
  });

  test('tokens are never logged', async () => {
    const token = await as.token({ scope: ALL });
    await rpc(t.url, 1, 'tools/call', { name: 'whoami', arguments: {} }, bearer(token));
    await rpc(t.url, 1, 'tools/call', { name: 'whoami', arguments: {} }, bearer(`${token}x`));
    expect(logs.raw.length).toBeGreaterThan(0);
    const signature = token.split('.')[2]!;
    expect(logs.raw.some((line) => line.includes(signature))).toBe(false);
  });
});

describe('403: insufficient scope (A-07, row 67)', () => {
  test('tools/call of a tool whose scope the token lacks → 403 with every needed scope, exactly', async () => {
    const res = await rpc(t.url, 1, 'tools/call', { name: 'notes_add', arguments: { text: 'x' } }, bearer(await as.token({ scope: 'mcp:use notes:read' })));
    expect(res.status).toBe(403);
    expect(res.headers['www-authenticate']).toBe(
      `Bearer error="insufficient_scope", scope="mcp:use notes:write", resource_metadata="${PRM_URL}", error_description="tools/call notes_add needs the scopes mcp:use notes:write; the token lacks notes:write"`,
    );
    expect(res.json).toEqual({
      jsonrpc: '2.0',
      error: {
        code: -32600,
        message:
          'Forbidden: tools/call notes_add needs the scopes mcp:use notes:write; the token lacks notes:write. Request a new token with scope="mcp:use notes:write" (the token grants: mcp:use notes:read)',
      },
    });
  });

  test('the server-wide scope is checked before anything is read → 403 naming it', async () => {
    const res = await rpc(t.url, 1, 'tools/list', {}, bearer(await as.token({ scope: 'notes:read' })));
    expect(res.status).toBe(403);
    expect(res.headers['www-authenticate']).toBe(
      `Bearer error="insufficient_scope", scope="mcp:use", resource_metadata="${PRM_URL}", error_description="this MCP endpoint needs the scope mcp:use; the token lacks mcp:use"`,
    );
  });

  test('no scopes at all → 403 listing everything needed', async () => {
    const res = await rpc(t.url, 1, 'tools/list', {}, bearer(await as.token()));
    expect(res.status).toBe(403);
    expect(res.json.error.message).toContain('(the token grants: no scopes)');
  });

  test("prompts/get checks the prompt's scopes", async () => {
    const denied = await rpc(t.url, 1, 'prompts/get', { name: 'summarise' }, bearer(await as.token({ scope: 'mcp:use notes:read' })));
    expect(denied.status).toBe(403);
    expect(denied.headers['www-authenticate']).toContain('scope="mcp:use notes:read prompts:use"');
    const allowed = await rpc(t.url, 1, 'prompts/get', { name: 'summarise' }, bearer(await as.token({ scope: 'mcp:use notes:read prompts:use' })));
    expect(allowed.status).toBe(200);
  });

  test.each(['notes://all', 'notes://42'])("resources/read %s checks the resource's scopes (fixed and template)", async (uri) => {
    const denied = await rpc(t.url, 1, 'resources/read', { uri }, bearer(await as.token({ scope: 'mcp:use' })));
    expect(denied.status).toBe(403);
    expect(denied.headers['www-authenticate']).toContain('scope="mcp:use notes:read"');
    expect(denied.json.error.message).toContain(`resources/read ${uri}`);
    const allowed = await rpc(t.url, 1, 'resources/read', { uri }, bearer(await as.token({ scope: 'mcp:use notes:read' })));
    expect(allowed.status).toBe(200);
  });

  test('scope match is exact: notes:write does not imply notes:read, nor "notes" either', async () => {
    const res = await rpc(t.url, 1, 'resources/read', { uri: 'notes://all' }, bearer(await as.token({ scope: 'mcp:use notes notes:write' })));
    expect(res.status).toBe(403);
  });

  test('an unknown tool with a valid token stays a handler error (200, -32602), not a 403', async () => {
    const res = await rpc(t.url, 1, 'tools/call', { name: 'nope', arguments: {} }, bearer(await as.token({ scope: 'mcp:use' })));
    expect(res.status).toBe(200);
    expect(res.json.error.code).toBe(-32602);
  });
});
