// Hardening risk (#48): one caller could fill every legacy session slot (10,000 in ~10 s) and
// every other initialize got 503 for up to 30 minutes. Sessions are now counted per caller — the
// token's subject when auth is on, the remote address when anonymous — up to
// legacySessions.maxSessionsPerPrincipal (default 100); beyond it 503 with Retry-After and a
// message naming the option; other callers are unaffected; a DELETE or an expiry frees the slot.
// Real HTTP on 127.0.0.1, the second address a client socket bound to 127.0.0.2.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { request as httpRequest } from 'node:http';
import type { McpAuthOptions, McpPluginOptions } from '@decorum/fastify';
import { startApp, type TestApp } from '../../packages/fastify/test/support/app.js';
import { AuthServerFixture } from '../../packages/fastify/test/support/auth-fixture.js';
import { INIT_PARAMS, LEGACY_POST_HEADERS } from '../../packages/fastify/test/support/legacy-client.js';
import { Hardening } from './fixtures/hardening-server.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: any;
}

/** One request from the client address `from` (127.0.0.x on Linux loopback). */
function request(url: string, from: string, method: string, headers: Record<string, string>, body?: object): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, localAddress: from, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, json: text === '' ? undefined : JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(body && JSON.stringify(body));
  });
}

const initialize = (url: string, from: string, headers: Record<string, string> = {}) =>
  request(url, from, 'POST', { ...LEGACY_POST_HEADERS, ...headers }, { jsonrpc: '2.0', id: 0, method: 'initialize', params: INIT_PARAMS });

const QUOTA_MESSAGE = (open: number) =>
  `Service Unavailable: this caller has ${open} sessions open, the most legacySessions.maxSessionsPerPrincipal allows; end one (DELETE) or try again later`;

const apps: TestApp[] = [];
const serve = async (options: Partial<McpPluginOptions> = {}) => {
  const app = await startApp({ servers: [Hardening], ...options });
  apps.push(app);
  return app;
};
afterAll(() => Promise.all(apps.map((app) => app.close())));

describe('anonymous callers are counted by remote address', () => {
  let t: TestApp;
  beforeAll(async () => (t = await serve()));

  test('100 sessions by default; the 101st initialize from that address → 503 with Retry-After, naming the option', async () => {
    const opened: string[] = [];
    for (let i = 0; i < 100; i++) {
      const res = await initialize(t.url, '127.0.0.2');
      expect(res.status).toBe(200);
      opened.push(res.headers['mcp-session-id'] as string);
    }
    const refused = await initialize(t.url, '127.0.0.2');
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.headers['mcp-session-id']).toBeUndefined();
    expect(refused.json).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: QUOTA_MESSAGE(100) } });

    // Another address is not affected.
    expect((await initialize(t.url, '127.0.0.1')).status).toBe(200);

    // A DELETE frees one slot, and only one.
    const ended = await request(t.url, '127.0.0.2', 'DELETE', { 'mcp-session-id': opened[0] });
    expect(ended.status).toBe(200);
    expect((await initialize(t.url, '127.0.0.2')).status).toBe(200);
    expect((await initialize(t.url, '127.0.0.2')).status).toBe(503);
  });
});

test('an expired session frees its slot', async () => {
  const t = await serve({ legacySessions: { maxSessionsPerPrincipal: 1, idleTimeoutMs: 300 } });
  expect((await initialize(t.url, '127.0.0.2')).status).toBe(200);
  const refused = await initialize(t.url, '127.0.0.2');
  expect([refused.status, refused.json.error.message]).toEqual([503, QUOTA_MESSAGE(1)]);
  await new Promise((resolve) => setTimeout(resolve, 350));
  expect((await initialize(t.url, '127.0.0.2')).status).toBe(200);
});

describe('with auth, callers are counted by the token subject', () => {
  const RESOURCE = 'https://mcp.example.test/mcp';
  let as: AuthServerFixture;
  beforeAll(async () => (as = await AuthServerFixture.start(RESOURCE)));
  afterAll(() => as.close());

  test("one subject's quota does not touch another's, from the same address", async () => {
    const t = await serve({
      auth: { resource: RESOURCE, authorizationServers: [as.issuer], jwt: { jwksUri: as.jwksUri } } as McpAuthOptions,
      legacySessions: { maxSessionsPerPrincipal: 2 },
    });
    const alice = { authorization: `Bearer ${await as.token({ sub: 'alice' })}` };
    const bob = { authorization: `Bearer ${await as.token({ sub: 'bob' })}` };
    expect((await initialize(t.url, '127.0.0.1', alice)).status).toBe(200);
    expect((await initialize(t.url, '127.0.0.1', alice)).status).toBe(200);
    const refused = await initialize(t.url, '127.0.0.1', alice);
    expect([refused.status, refused.json.error.message, refused.headers['retry-after']]).toEqual([503, QUOTA_MESSAGE(2), '60']);
    expect((await initialize(t.url, '127.0.0.1', bob)).status).toBe(200);
  });
});

test('maxSessionsPerPrincipal must be a positive integer (start-up error)', async () => {
  await expect(serve({ legacySessions: { maxSessionsPerPrincipal: 0 } })).rejects.toMatchObject({
    code: 'DECORUM_ERR_INVALID_NUMBER',
    message: 'DECORUM_ERR_INVALID_NUMBER: mcpPlugin: legacySessions.maxSessionsPerPrincipal must be a positive integer (got 0)',
  });
});
