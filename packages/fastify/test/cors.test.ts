// CORS for browser clients (#47): with `cors: true` the endpoint answers preflights and lets pages
// read its answers for the origins of `allowedOrigins` — origins listed once — in both eras; a
// foreign origin's 403 names the option to change. A real Fastify server on 127.0.0.1.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import { codeBlocks } from '@decorum-internal/test-support';
import { StartupErrorCode } from '@decorum/core';
import { CORS_ALLOWED_HEADERS, mcpPlugin } from '@decorum/fastify';
import { rpc, send } from './support/http.js';
import { INIT_PARAMS, legacyPost } from './support/legacy-client.js';
import { startApp, type TestApp } from './support/app.js';
import { signingKey } from './support/auth-fixture.js';
import { FixtureServer } from './support/fixture-server.js';
import { ROOT } from './support/cli-process.js';
import { runnable, start } from './support/snippet-process.js';

const APP = 'https://app.example.com';
const EVIL = 'https://evil.example';

/** A browser's preflight for `method` with `headers` (lower-case names, as browsers send them). */
function preflight(url: string, origin: string, method: string, headers: string[]) {
  return send(url, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers.join(',') },
  });
}

/** The names of a comma-separated header list, lower-cased. */
const names = (value: unknown) =>
  String(value ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);

describe('cors: true on a dual-era endpoint', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startApp({ servers: [FixtureServer], allowedOrigins: [APP], cors: true })));
  afterAll(() => t.close());

  test("a modern client's preflight from an allowed origin: 204 with the methods, the MCP headers and the Mcp-Param-* it asks for", async () => {
    const asked = ['content-type', 'mcp-protocol-version', 'mcp-method', 'mcp-name', 'mcp-param-region', 'authorization'];
    const res = await preflight(t.url, APP, 'POST', asked);
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(APP);
    expect(names(res.headers['access-control-allow-methods'])).toEqual(['get', 'post', 'delete']);
    expect(names(res.headers['access-control-allow-headers'])).toEqual(expect.arrayContaining([...asked, 'mcp-session-id', 'last-event-id']));
    expect(res.headers['access-control-max-age']).toBe('600');
    expect(names(res.headers.vary)).toContain('origin');
  });

  test('a preflight from a foreign origin: 403, naming the option to change', async () => {
    const res = await preflight(t.url, EVIL, 'POST', ['content-type']);
    expect(res.status).toBe(403);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.json).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: `Forbidden: Origin "${EVIL}" is not allowed; add it to allowedOrigins` } });
  });

  test('a modern POST from an allowed origin can be read by the page, JSON and SSE alike', async () => {
    const json = await rpc(t.url, 1, 'tools/call', { name: 'echo', arguments: { text: 'hi' } }, { headers: { origin: APP } });
    expect([json.status, json.headers['access-control-allow-origin']]).toEqual([200, APP]);
    expect(names(json.headers['access-control-expose-headers'])).toEqual(expect.arrayContaining(['mcp-session-id', 'www-authenticate', 'retry-after']));
    const sse = await rpc(t.url, 2, 'tools/call', { name: 'slow', arguments: { steps: 1, delayMs: 1 } }, { progressToken: 'p', headers: { origin: APP } });
    expect(sse.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(sse.headers['access-control-allow-origin']).toBe(APP);
  });

  test('a legacy (2025-11-25) browser session: the page reads Mcp-Session-Id (exposed), and may DELETE the session', async () => {
    const init = await legacyPost(t.url, { jsonrpc: '2.0', id: 0, method: 'initialize', params: INIT_PARAMS }, { origin: APP });
    expect(init.status).toBe(200);
    expect(init.headers['access-control-allow-origin']).toBe(APP);
    expect(names(init.headers['access-control-expose-headers'])).toContain('mcp-session-id');
    const session = init.headers['mcp-session-id'] as string;
    expect(session).toEqual(expect.any(String));

    const before = await preflight(t.url, APP, 'DELETE', ['mcp-session-id', 'mcp-protocol-version']);
    expect(before.status).toBe(204);
    expect(names(before.headers['access-control-allow-methods'])).toContain('delete');
    expect(names(before.headers['access-control-allow-headers'])).toEqual(expect.arrayContaining(['mcp-session-id', 'mcp-protocol-version']));

    const stream = await preflight(t.url, APP, 'GET', ['mcp-session-id', 'last-event-id']);
    expect(names(stream.headers['access-control-allow-headers'])).toEqual(expect.arrayContaining(['mcp-session-id', 'last-event-id']));

    const deleted = await send(t.url, { method: 'DELETE', headers: { origin: APP, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } });
    expect([deleted.status, deleted.headers['access-control-allow-origin']]).toEqual([200, APP]);
    const gone = await send(t.url, { method: 'DELETE', headers: { origin: APP, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } });
    expect(gone.status).toBe(404);
  });

  test('a request without Origin (not a browser) gets no CORS headers', async () => {
    const res = await rpc(t.url, 3, 'tools/list');
    expect(res.status).toBe(200);
    expect(Object.keys(res.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });

  test('an OPTIONS that is not a preflight gets Allow', async () => {
    const res = await send(t.url, { method: 'OPTIONS' });
    expect([res.status, res.headers.allow]).toEqual([204, 'GET, POST, DELETE, OPTIONS']);
  });
});

test('the default allowlist (local origins) applies: a dev server on localhost is answered, a modern-only endpoint allows POST only', async () => {
  const t = await startApp({ servers: [FixtureServer], cors: { maxAge: 60, allowedHeaders: ['X-Trace-Id'] }, eras: 'modern' });
  try {
    const res = await preflight(t.url, 'http://localhost:5173', 'POST', ['content-type', 'x-trace-id']);
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(res.headers['access-control-allow-methods']).toBe('POST');
    expect(res.headers['access-control-max-age']).toBe('60');
    expect(names(res.headers['access-control-allow-headers'])).toEqual([...CORS_ALLOWED_HEADERS.map((name) => name.toLowerCase()), 'x-trace-id']);
    expect((await preflight(t.url, APP, 'POST', ['content-type'])).status).toBe(403);
  } finally {
    await t.close();
  }
});

test('on a protected endpoint the preflight needs no token, and the 401 challenge is readable by the page', async () => {
  const key = await signingKey('k1');
  const t = await startApp({
    servers: [FixtureServer],
    allowedOrigins: [APP],
    cors: true,
    auth: { resource: 'https://mcp.example.test/mcp', authorizationServers: ['https://auth.example.test'], jwt: { jwks: { keys: [key.publicJwk] } } },
  });
  try {
    expect((await preflight(t.url, APP, 'POST', ['authorization', 'content-type'])).status).toBe(204);
    const res = await rpc(t.url, 1, 'tools/list', {}, { headers: { origin: APP } });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer /);
    expect(res.headers['access-control-allow-origin']).toBe(APP);
    expect(names(res.headers['access-control-expose-headers'])).toContain('www-authenticate');
  } finally {
    await t.close();
  }
});

test('without cors the endpoint answers no CORS (the app may use @fastify/cors instead)', async () => {
  const t = await startApp({ servers: [FixtureServer], allowedOrigins: [APP] });
  try {
    expect((await preflight(t.url, APP, 'POST', ['content-type'])).status).toBe(404);
    const res = await rpc(t.url, 1, 'tools/list', {}, { headers: { origin: APP } });
    expect([res.status, res.headers['access-control-allow-origin']]).toEqual([200, undefined]);
  } finally {
    await t.close();
  }
});

test('a cors.maxAge that is not a whole number of seconds fails start-up with DECORUM_ERR_INVALID_NUMBER', async () => {
  const app = Fastify();
  await expect(app.register(mcpPlugin, { servers: [FixtureServer], cors: { maxAge: 1.5 } }).ready()).rejects.toMatchObject({
    code: StartupErrorCode.INVALID_NUMBER,
    message: 'DECORUM_ERR_INVALID_NUMBER: mcpPlugin: cors.maxAge must be an integer ≥ 0 (seconds; got 1.5)',
  });
  await app.close();
});

test("the guide's example (docs/cors.md), run as written: its origins are answered, the local default no longer is", async () => {
  const code = codeBlocks('docs/cors.md').find((block) => block.info === 'ts')!.code;
  // Inside the repository, so that `fastify` and `@decorum/fastify` resolve as they would in an app.
  const dir = mkdtempSync(join(ROOT, 'packages/fastify/test/.cors-guide-'));
  const file = join(dir, 'app.mjs');
  writeFileSync(file, runnable(code, '\nprocess.stderr.write(`MCP endpoint: http://127.0.0.1:${app.server.address().port}/mcp\\n`);\n'));
  const { url, stop } = await start(file);
  try {
    for (const origin of [APP, 'https://pr-12.preview.example.com']) {
      const res = await preflight(url, origin, 'POST', ['content-type', 'mcp-method']);
      expect([res.status, res.headers['access-control-allow-origin']]).toEqual([204, origin]);
    }
    expect((await preflight(url, 'http://localhost:5173', 'POST', ['content-type'])).status).toBe(403);
    const call = await rpc(url, 1, 'tools/list', {}, { headers: { origin: APP } });
    expect([call.status, call.headers['access-control-allow-origin']]).toEqual([200, APP]);
  } finally {
    await stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
