// Hardening risk: tokens without `sub` were accepted with principal `undefined`, so such callers
// shared MRTR bindings. They are refused by default (401 invalid_token); `requireSubject: false`
// allows them; `typ` is checked when configured. Real tokens, signed with jose.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { SignJWT } from 'jose';
import type { McpAuthOptions } from '@decorum/fastify';
import { startApp, type TestApp } from '../../packages/fastify/test/support/app.js';
import { AuthServerFixture } from '../../packages/fastify/test/support/auth-fixture.js';
import { rpc } from '../../packages/fastify/test/support/http.js';
import { Hardening } from './fixtures/hardening-server.js';

const RESOURCE = 'https://mcp.example.test/mcp';
let as: AuthServerFixture;
const apps: TestApp[] = [];
beforeAll(async () => (as = await AuthServerFixture.start(RESOURCE)));
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
  await as.close();
});

async function serve(auth: Partial<McpAuthOptions>): Promise<TestApp> {
  const served = await startApp({
    servers: [Hardening],
    auth: { resource: RESOURCE, authorizationServers: [as.issuer], jwt: { jwksUri: as.jwksUri }, ...auth } as McpAuthOptions,
  });
  apps.push(served);
  return served;
}

const call = (served: TestApp, token: string) =>
  rpc(served.url, 1, 'tools/call', { name: 'echo', arguments: { text: 'hi' } }, { headers: { authorization: `Bearer ${token}` } });

describe('a JWT without sub', () => {
  test('is refused by default: 401 invalid_token that says why', async () => {
    const res = await call(await serve({}), await as.token({ sub: undefined }));
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toContain('error="invalid_token"');
    expect(res.headers['www-authenticate']).toContain('error_description="the access token names no subject (sub); tokens must identify their caller"');
  });

  test('an empty sub is no subject either', async () => {
    expect((await call(await serve({}), await as.token({ sub: '' }))).status).toBe(401);
  });

  test('is accepted with requireSubject: false', async () => {
    expect((await call(await serve({ requireSubject: false }), await as.token({ sub: undefined }))).status).toBe(200);
  });

  test('a token with sub is served', async () => {
    expect((await call(await serve({}), await as.token())).status).toBe(200);
  });
});

test('a verify hook that returns no principal is refused by default', async () => {
  const served = await serve({ jwt: undefined, verify: () => ({ principal: undefined as unknown as string, scopes: [], claims: {} }) });
  expect((await call(served, 'opaque')).status).toBe(401);
});

test('jwt.typ, when configured, refuses a token of another type', async () => {
  const served = await serve({ jwt: { jwksUri: as.jwksUri, typ: 'at+jwt' } });
  expect((await call(served, await as.token())).status).toBe(200);
  const now = Math.floor(Date.now() / 1000);
  const idToken = await new SignJWT({ iss: as.issuer, aud: RESOURCE, sub: 'alice', exp: now + 300 })
    .setProtectedHeader({ alg: as.key.alg, kid: as.key.kid, typ: 'JWT' })
    .sign(as.key.privateKey);
  const res = await call(served, idToken);
  expect(res.status).toBe(401);
  expect(res.headers['www-authenticate']).toContain('the access token has the wrong type (typ header)');
});
