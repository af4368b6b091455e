// On a dual-era endpoint GET and DELETE belong to legacy sessions, but a request that names
// MCP-Protocol-Version 2026-07-28 gets the modern rule: 405 with `Allow: POST` (DIGEST §17.4, H-04),
// not the legacy "send initialize first" 400 — and before any bearer token is looked at.
import { send } from './support/http.js';
import { initializeSession } from './support/legacy-client.js';
import { startApp, type TestApp } from './support/app.js';
import { signingKey } from './support/auth-fixture.js';
import { FixtureServer } from './support/fixture-server.js';

const MODERN = '2026-07-28';

describe('GET and DELETE with a modern MCP-Protocol-Version on a dual-era endpoint', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startApp({ servers: [FixtureServer] })));
  afterAll(() => t.close());

  test.each(['GET', 'DELETE'])('%s → 405, Allow: POST, naming the version', async (method) => {
    const res = await send(t.url, { method, headers: { 'mcp-protocol-version': MODERN, accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
    expect(res.json).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: expect.stringMatching(/^Method Not Allowed: MCP-Protocol-Version 2026-07-28 /) },
    });
  });

  test.each(['GET', 'DELETE'])('%s with a stale Mcp-Session-Id and the modern version → 405 too (the header is ignored)', async (method) => {
    const { id } = await initializeSession(t.url);
    const res = await send(t.url, { method, headers: { 'mcp-protocol-version': MODERN, 'mcp-session-id': id, accept: 'text/event-stream' } });
    expect([res.status, res.headers.allow]).toEqual([405, 'POST']);
    // The session was not ended by the modern DELETE.
    const ended = await send(t.url, { method: 'DELETE', headers: { 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': id } });
    expect(ended.status).toBe(200);
  });

  test('legacy GET and DELETE keep their rules: without a session, 400 "send initialize first"', async () => {
    for (const headers of [{}, { 'mcp-protocol-version': '2025-11-25' }]) {
      const res = await send(t.url, { method: 'GET', headers: { ...headers, accept: 'text/event-stream' } });
      expect([res.status, res.json.error.message]).toEqual([400, expect.stringContaining('send initialize first')]);
    }
  });

  test('PUT still lists the methods of both eras', async () => {
    const res = await send(t.url, { method: 'PUT', headers: { 'mcp-protocol-version': MODERN } });
    expect([res.status, res.headers.allow]).toEqual([405, 'GET, POST, DELETE']);
  });
});

test('on a protected dual-era endpoint, a modern GET is 405 before the token is looked at (not 401)', async () => {
  const key = await signingKey('k1');
  const t = await startApp({
    servers: [FixtureServer],
    auth: { resource: 'https://mcp.example.test/mcp', authorizationServers: ['https://auth.example.test'], jwt: { jwks: { keys: [key.publicJwk] } } },
  });
  try {
    const modern = await send(t.url, { method: 'GET', headers: { 'mcp-protocol-version': MODERN, accept: 'text/event-stream' } });
    expect([modern.status, modern.headers.allow]).toEqual([405, 'POST']);
    const legacy = await send(t.url, { method: 'GET', headers: { 'mcp-protocol-version': '2025-11-25', accept: 'text/event-stream' } });
    expect(legacy.status).toBe(401);
  } finally {
    await t.close();
  }
});
