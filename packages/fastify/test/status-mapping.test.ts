import { refusalStatus } from '../src/status.js';
import { postRaw, rpc } from './support/http.js';
import { injectApp, type TestApp } from './support/app.js';
import { FixtureServer, OtherServer } from './support/fixture-server.js';

// The status of each JSON-RPC error is its era codec's: core's era-codecs.test.ts has both tables.
describe('refusal statuses (status.ts)', () => {
  test.each([
    ['forbidden-origin', 403],
    ['method-not-allowed', 405],
    ['not-acceptable', 406],
    ['body-too-large', 413],
    ['unsupported-media-type', 415],
  ] as const)('refusal %s → %i', (kind, status) => {
    expect(refusalStatus(kind)).toBe(status);
  });
});

/** The digest's status table, on the wire (§5.8; #53–#56). */
describe('status mapping on the wire', () => {
  let t: TestApp;
  let tools: TestApp;
  beforeAll(async () => {
    t = await injectApp({ servers: [FixtureServer] });
    tools = await injectApp({ servers: [OtherServer] });
  });
  afterAll(async () => {
    await t.close();
    await tools.close();
  });

  test('invalid JSON → 400 -32700 without id (#55)', async () => {
    const res = await postRaw(t.url, '{"jsonrpc":"2.0",', { 'mcp-method': 'tools/list' });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: expect.any(String) } });
  });

  test('an empty body → 400 -32700', async () => {
    const res = await postRaw(t.url, '');
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe(-32700);
  });

  test('a batch → 400 -32600 without id, members not run (#56)', async () => {
    const res = await postRaw(t.url, JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }]), { 'mcp-method': 'tools/list' });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: expect.stringContaining('batch') } });
  });

  test('a response object → 400 -32600 (#56)', async () => {
    const res = await postRaw(t.url, JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} }));
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe(-32600);
    expect(res.json.id).toBeUndefined();
  });

  test('an invalid envelope with a readable id echoes the id', async () => {
    const res = await postRaw(t.url, JSON.stringify({ jsonrpc: '1.0', id: 7, method: 'tools/list' }));
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ id: 7, error: { code: -32600 } });
  });

  test('a null id → 400 -32600', async () => {
    const res = await postRaw(t.url, JSON.stringify({ jsonrpc: '2.0', id: null, method: 'tools/list', params: {} }));
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe(-32600);
  });

  test('a body lacking _meta → 400 -32602 (#54)', async () => {
    const res = await postRaw(t.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }), { 'mcp-method': 'tools/list' });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ id: 1, error: { code: -32602 } });
  });

  test('an unknown log level in _meta → 400 -32602', async () => {
    const res = await rpc(t.url, 1, 'tools/list', {}, { logLevel: 'verbose' });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe(-32602);
  });

  test('an unknown method → 404 with a -32601 body (#53)', async () => {
    const res = await rpc(t.url, 1, 'foo/bar');
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32601 } });
  });

  test('a capability the server does not serve → 404 -32601 (prompts/list without prompts)', async () => {
    const res = await rpc(tools.url, 1, 'prompts/list');
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe(-32601);
  });

  test('legacy methods (ping, logging/setLevel) → 404 -32601', async () => {
    expect((await rpc(t.url, 1, 'ping')).status).toBe(404);
    expect((await rpc(t.url, 2, 'logging/setLevel', { level: 'info' })).status).toBe(404);
  });

  test('an unknown tool → 200 with -32602 (handler-level, H-40)', async () => {
    const res = await rpc(t.url, 1, 'tools/call', { name: 'does_not_exist' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: 1, error: { code: -32602 } });
  });

  test('a missing resource → 200 with -32602', async () => {
    const res = await rpc(t.url, 1, 'resources/read', { uri: 'nothing://here' });
    expect(res.status).toBe(200);
    expect(res.json.error.code).toBe(-32602);
  });

  test('a bad cursor → 200 with -32602', async () => {
    const res = await rpc(t.url, 1, 'tools/list', { cursor: '!!garbage!!' });
    expect(res.status).toBe(200);
    expect(res.json.error.code).toBe(-32602);
  });

  test('a tool result with isError → 200', async () => {
    const res = await rpc(t.url, 1, 'tools/call', { name: 'fail' });
    expect(res.status).toBe(200);
    expect(res.json.result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'it failed on purpose' }] });
  });

  test('invalid tool arguments → 200 with an isError result', async () => {
    const res = await rpc(t.url, 1, 'tools/call', { name: 'echo', arguments: {} });
    expect(res.status).toBe(200);
    expect(res.json.result.isError).toBe(true);
  });

  test('results → 200', async () => {
    const res = await rpc(t.url, 1, 'tools/call', { name: 'echo', arguments: { text: 'ok' } });
    expect(res.status).toBe(200);
    expect(res.json.result.content).toEqual([{ type: 'text', text: 'ok' }]);
  });
});
