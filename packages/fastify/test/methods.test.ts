import { body, postRaw, rpc, send, standardHeaders } from './support/http.js';
import { injectApp, type TestApp } from './support/app.js';
import { FixtureServer } from './support/fixture-server.js';

/**
 * Which HTTP methods, media types and Accept values a modern-only endpoint takes (spec §5.1–5.2).
 * A dual-era endpoint also takes GET and DELETE for legacy sessions (legacy-http-sessions.test.ts).
 */
describe('HTTP methods and media types', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await injectApp({ servers: [FixtureServer], eras: 'modern' });
  });
  afterAll(() => t.close());

  test('POST server/discover → 200 application/json, no Mcp-Session-Id (#41)', async () => {
    const res = await rpc(t.url, 1, 'server/discover');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['mcp-session-id']).toBeUndefined();
    expect(res.json).toMatchObject({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete', supportedVersions: ['2026-07-28'] } });
  });

  test.each(['GET', 'DELETE', 'PUT', 'PATCH'])('%s → 405 with Allow: POST and a JSON-RPC error without id (#42, #68)', async (method) => {
    const res = await send(t.url, { method, headers: { accept: 'application/json, text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
    expect(res.json).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: expect.stringContaining('POST') } });
  });

  test('HEAD → 405 as well', async () => {
    const res = await send(t.url, { method: 'HEAD' });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
  });

  test('a notification → 202 with no body (#57)', async () => {
    const res = await postRaw(t.url, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }));
    expect(res.status).toBe(202);
    expect(res.text).toBe('');
  });

  test('a notification needs no MCP headers', async () => {
    const res = await send(t.url, {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    expect(res.status).toBe(202);
  });

  test.each([
    ['text/plain', 'text/plain'],
    ['form data', 'application/x-www-form-urlencoded'],
    ['a JSON look-alike', 'application/jsonx'],
  ])('Content-Type %s → 415 with a JSON-RPC error without id (#62)', async (_name, type) => {
    const message = body(1, 'tools/list');
    const res = await send(t.url, { headers: { ...standardHeaders(message), 'content-type': type }, body: JSON.stringify(message) });
    expect(res.status).toBe(415);
    expect(res.json).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: expect.stringContaining('application/json') } });
  });

  test('no Content-Type at all → 415', async () => {
    const message = body(1, 'tools/list');
    const headers: Record<string, string> = standardHeaders(message);
    delete headers['content-type'];
    const res = await send(t.url, { headers, body: JSON.stringify(message) });
    expect(res.status).toBe(415);
  });

  test('Content-Type with parameters (charset) is JSON', async () => {
    const res = await rpc(t.url, 1, 'tools/list', {}, { headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(res.status).toBe(200);
  });

  test.each(['text/html', 'application/xml, text/plain', 'application/json;q=0, text/event-stream;q=0'])(
    'Accept %s → 406 with a JSON-RPC error without id',
    async (accept) => {
      const res = await rpc(t.url, 1, 'tools/list', {}, { headers: { accept } });
      expect(res.status).toBe(406);
      expect(res.json).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: expect.stringContaining('Accept') } });
    },
  );

  test.each([
    undefined,
    '*/*',
    'application/*',
    'application/json',
    'text/html;q=0.9, application/json; charset=utf-8;q=0.5',
    'APPLICATION/JSON;q=0.1, text/html',
  ])('Accept %s is served (lenient when absent)', async (accept) => {
    const res = await rpc(t.url, 1, 'tools/list', {}, { headers: { accept } });
    expect(res.status).toBe(200);
    expect(res.json.result.tools.length).toBeGreaterThan(0);
  });

  test('Accept text/event-stream only → even a plain request answers as SSE', async () => {
    const res = await rpc(t.url, 1, 'tools/list', {}, { headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.events).toEqual([expect.objectContaining({ id: 1, result: expect.objectContaining({ tools: expect.any(Array) }) })]);
  });

  test('Accept application/json only → a progressToken request still answers as JSON (no SSE forced on the client)', async () => {
    const res = await rpc(
      t.url,
      2,
      'tools/call',
      { name: 'slow', arguments: { steps: 2, delayMs: 1 } },
      { progressToken: 'p', headers: { accept: 'application/json' } },
    );
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json.result.content[0].text).toBe('done after 2 steps');
  });

  test('other paths are not the endpoint', async () => {
    const res = await rpc(`${t.base}/other`, 1, 'tools/list');
    expect(res.status).toBe(404);
  });
});
