import Fastify from 'fastify';
import { DecorumStartupError, StartupErrorCode } from '@decorum/core';
import { createHttpLogger, createMcpApp, isLocalOrigin, mcpPlugin } from '@decorum/fastify';
import { Writable } from 'node:stream';
import { rpc, send, standardHeaders, body as requestBody } from './support/http.js';
import { LogCapture, injectApp, type TestApp } from './support/app.js';
import { FixtureServer } from './support/fixture-server.js';

describe('Origin validation (DNS rebinding; #43)', () => {
  let t: TestApp;
  let custom: TestApp;
  beforeAll(async () => {
    t = await injectApp({ servers: [FixtureServer] });
    custom = await injectApp({ servers: [FixtureServer], allowedOrigins: ['https://app.example.com', /^https:\/\/[a-z]+\.trusted\.test$/] });
  });
  afterAll(async () => {
    await t.close();
    await custom.close();
  });

  test('a foreign Origin → 403 with a JSON-RPC error without id, and the request is not run', async () => {
    const res = await rpc(t.url, 1, 'tools/call', { name: 'echo', arguments: { text: 'x' } }, { headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
    expect(res.json).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: expect.stringContaining('evil.example') } });
  });

  test('Origin is checked before the method: a foreign GET is 403, not 405', async () => {
    expect((await send(t.url, { method: 'GET', headers: { origin: 'https://evil.example' } })).status).toBe(403);
  });

  test.each(['http://localhost:5173', 'http://127.0.0.1:8080', 'https://localhost', 'http://[::1]:3000'])('default allowlist: %s is served', async (origin) => {
    expect((await rpc(t.url, 1, 'tools/list', {}, { headers: { origin } })).status).toBe(200);
  });

  test.each(['null', 'http://localhost.evil.example', 'file://', 'http://127.0.0.1.nip.io'])('default allowlist: %s is refused', async (origin) => {
    expect((await rpc(t.url, 1, 'tools/list', {}, { headers: { origin } })).status).toBe(403);
  });

  test('no Origin (a non-browser client) is served', async () => {
    expect((await rpc(t.url, 1, 'tools/list')).status).toBe(200);
  });

  test('a custom allowlist replaces the default', async () => {
    expect((await rpc(custom.url, 1, 'tools/list', {}, { headers: { origin: 'https://app.example.com' } })).status).toBe(200);
    expect((await rpc(custom.url, 1, 'tools/list', {}, { headers: { origin: 'https://APP.example.com:443' } })).status).toBe(200);
    expect((await rpc(custom.url, 1, 'tools/list', {}, { headers: { origin: 'https://eu.trusted.test' } })).status).toBe(200);
    expect((await rpc(custom.url, 1, 'tools/list', {}, { headers: { origin: 'http://localhost:3000' } })).status).toBe(403);
  });

  test('isLocalOrigin is exported for combining with your own rule', () => {
    expect(isLocalOrigin('http://localhost:1')).toBe(true);
    expect(isLocalOrigin('https://example.com')).toBe(false);
  });

  test('an allowedOrigins entry that is not an origin fails start-up', async () => {
    const app = Fastify();
    await expect(app.register(mcpPlugin, { servers: [FixtureServer], allowedOrigins: ['https://app.example.com/path'] }).ready()).rejects.toMatchObject({
      code: StartupErrorCode.INVALID_ORIGIN,
    });
    await app.close();
  });

  test.each([
    [{ path: 'mcp' }, StartupErrorCode.INVALID_ADDRESS, /^DECORUM_ERR_INVALID_ADDRESS: mcpPlugin: path must start with "\/"/],
    [{ bodyLimit: 0 }, StartupErrorCode.INVALID_NUMBER, /^DECORUM_ERR_INVALID_NUMBER: mcpPlugin: bodyLimit must be a positive integer/],
    [{ sseKeepAliveMs: -1 }, StartupErrorCode.INVALID_NUMBER, /^DECORUM_ERR_INVALID_NUMBER: mcpPlugin: sseKeepAliveMs must be an integer ≥ 0/],
    [
      { legacySessions: { maxSessions: 0 } },
      StartupErrorCode.INVALID_NUMBER,
      /^DECORUM_ERR_INVALID_NUMBER: mcpPlugin: legacySessions\.maxSessions must be a positive integer/,
    ],
  ])('the plugin option %j out of range fails start-up with %s', async (option, code, message) => {
    const app = Fastify();
    await expect(app.register(mcpPlugin, { servers: [FixtureServer], ...option }).ready()).rejects.toMatchObject({
      code,
      message: expect.stringMatching(message),
    });
    await app.close();
  });
});

describe('body limit (#62)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await injectApp({ servers: [FixtureServer], bodyLimit: 64 * 1024 });
  });
  afterAll(() => t.close());

  test('a body over the limit → 413 with a JSON-RPC error without id; the server stays healthy', async () => {
    const big = requestBody(1, 'tools/call', { name: 'echo', arguments: { text: 'x'.repeat(200 * 1024) } });
    const res = await send(t.url, { headers: standardHeaders(big), body: JSON.stringify(big) });
    expect(res.status).toBe(413);
    expect(res.json).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: expect.stringContaining('65536') } });
    expect((await rpc(t.url, 2, 'tools/list')).status).toBe(200);
  });

  test('10 MB of random bytes as text/plain → 415 (refused before reading); the server stays healthy', async () => {
    const res = await send(t.url, { headers: { 'content-type': 'text/plain' }, body: Buffer.alloc(10 * 1024 * 1024, 7) }).catch((e: Error) => ({
      status: -1,
      error: e,
    }));
    // The server may cut the upload short after answering; either way it refused and keeps serving.
    if (res.status !== -1) expect(res.status).toBe(415);
    expect((await rpc(t.url, 2, 'tools/list')).status).toBe(200);
  });

  test('the default limit is 4 MiB', async () => {
    const d = await injectApp({ servers: [FixtureServer] });
    try {
      const ok = requestBody(1, 'tools/call', { name: 'echo', arguments: { text: 'x'.repeat(3 * 1024 * 1024) } });
      expect((await send(d.url, { headers: standardHeaders(ok), body: JSON.stringify(ok) })).status).toBe(200);
      const tooBig = requestBody(2, 'tools/call', { name: 'echo', arguments: { text: 'x'.repeat(5 * 1024 * 1024) } });
      expect((await send(d.url, { headers: standardHeaders(tooBig), body: JSON.stringify(tooBig) })).status).toBe(413);
    } finally {
      await d.close();
    }
  });
});

describe('sessions and credentials', () => {
  test('Mcp-Session-Id and Last-Event-ID are ignored and never minted or echoed (#58)', async () => {
    const t = await injectApp({ servers: [FixtureServer] });
    try {
      for (const progressToken of [undefined, 'p']) {
        const res = await rpc(
          t.url,
          1,
          'tools/call',
          { name: 'echo', arguments: { text: 'x' } },
          { progressToken, headers: { 'mcp-session-id': 'abc', 'last-event-id': '5' } },
        );
        expect(res.status).toBe(200);
        expect(res.headers['mcp-session-id']).toBeUndefined();
      }
      const discover = await rpc(t.url, 2, 'server/discover');
      expect(discover.headers['mcp-session-id']).toBeUndefined();
    } finally {
      await t.close();
    }
  });

  test('the Authorization header never reaches the logs', async () => {
    const logs = new LogCapture();
    const t = await injectApp({ servers: [FixtureServer] }, undefined, logs);
    try {
      await rpc(t.url, 1, 'tools/call', { name: 'slow', arguments: { steps: 1, delayMs: 1 } }, { headers: { authorization: 'Bearer s3cr3t-token' } });
      await rpc(t.url, 2, 'tools/call', { name: 'nope' }, { headers: { authorization: 'Bearer s3cr3t-token' } });
      await new Promise((r) => setTimeout(r, 20));
      expect(logs.raw.length).toBeGreaterThan(0);
      expect(logs.raw.join('\n')).not.toContain('s3cr3t');
    } finally {
      await t.close();
    }
  });

  test('the default logger of createMcpApp redacts credential headers wherever a request is logged with them', async () => {
    const out: string[] = [];
    const logger = createHttpLogger({ destination: new Writable({ write: (c, _e, done) => (out.push(String(c)), done()) }) });
    const app = await createMcpApp([FixtureServer], { logger });
    // Fastify's request serializer logs no headers at all; headers logged by hand are redacted.
    app.log.info({ req: { method: 'POST', url: '/mcp', headers: { authorization: 'Bearer s3cr3t' } } }, 'request');
    app.log.info({ headers: { authorization: 'Bearer s3cr3t', cookie: 'sid=1', accept: '*/*' } }, 'logged with headers');
    await app.close();
    expect(out.join('')).not.toContain('s3cr3t');
    expect(JSON.parse(out[1]).headers).toEqual({ authorization: '[redacted]', cookie: '[redacted]', accept: '*/*' });
  });

  test('an auth option without a way to verify tokens fails start-up rather than serving unprotected', async () => {
    const app = Fastify();
    const auth = { resource: 'https://mcp.example.com', authorizationServers: ['https://auth.example.com'] };
    await expect(app.register(mcpPlugin, { servers: [FixtureServer], auth } as never).ready()).rejects.toBeInstanceOf(DecorumStartupError);
    await app.close();
  });
});
