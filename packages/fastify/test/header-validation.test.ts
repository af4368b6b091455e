import { body, postRaw, rpc, send, standardHeaders } from './support/http.js';
import { injectApp, type TestApp } from './support/app.js';
import { FixtureServer } from './support/fixture-server.js';

function expectHeaderMismatch(res: { status: number; json: any }, header: string, id: string | number = 1) {
  expect(res.status).toBe(400);
  expect(res.json).toMatchObject({ jsonrpc: '2.0', id, error: { code: -32020 } });
  expect(res.json.error.message).toContain(header);
}

/** The standard request headers (spec "Request Metadata", "Server Validation"; digest H-14…H-19, #44–#48). */
describe('MCP header validation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await injectApp({ servers: [FixtureServer] });
  });
  afterAll(() => t.close());

  describe('spec "Server Validation": one test per validation failure condition', () => {
    test('a required standard header is missing → 400 -32020', async () => {
      expectHeaderMismatch(await rpc(t.url, 1, 'tools/list', {}, { headers: { 'mcp-method': undefined } }), 'Mcp-Method');
    });

    test("a header value does not match the body → 400 -32020 in the spec's message shape", async () => {
      const res = await rpc(t.url, 1, 'tools/call', { name: 'echo', arguments: { text: 'x' } }, { headers: { 'mcp-name': 'foo' } });
      expectHeaderMismatch(res, 'Mcp-Name');
      expect(res.json.error.message).toBe("Header mismatch: Mcp-Name header value 'foo' does not match body value 'echo'");
    });

    test('a header value contains invalid characters → 400 -32020', async () => {
      // 'é' as a raw latin1 byte: allowed by Node's parser, not by RFC 9110 field-value rules.
      const res = await rpc(t.url, 1, 'resources/read', { uri: 'mem://café' }, { headers: { 'mcp-name': 'mem://café' } });
      expectHeaderMismatch(res, 'Mcp-Name');
      expect(res.json.error.message).toContain('characters not allowed');
    });
  });

  describe('spec "Server Behavior for Custom Headers" table: one test per row', () => {
    const args = { region: 'us-west1', query: 'SELECT 1' };

    test('parameter value provided → the server validates that the header matches the body', async () => {
      expect((await rpc(t.url, 1, 'tools/call', { name: 'region_sql', arguments: args }, { headers: { 'mcp-param-region': 'us-west1' } })).status).toBe(200);
      expectHeaderMismatch(
        await rpc(t.url, 2, 'tools/call', { name: 'region_sql', arguments: args }, { headers: { 'mcp-param-region': 'eu-west1' } }),
        'Mcp-Param-Region',
        2,
      );
    });

    test('parameter value is null → the server does not expect the header', async () => {
      const res = await rpc(t.url, 1, 'tools/call', { name: 'region_sql', arguments: { ...args, n: null } }, { headers: { 'mcp-param-region': 'us-west1' } });
      // Not a header failure; the null is the tool's argument validation to judge (#52).
      expect(res.status).toBe(200);
      expect(res.json.result.isError).toBe(true);
    });

    test('parameter not in arguments → the server does not expect the header', async () => {
      const res = await rpc(t.url, 1, 'tools/call', { name: 'region_sql', arguments: args }, { headers: { 'mcp-param-region': 'us-west1' } });
      expect(res.status).toBe(200);
      expect(res.json.result.content[0].text).toBe('ran in us-west1');
    });

    test('client omits the header but the value is in the body → the server rejects the request', async () => {
      expectHeaderMismatch(await rpc(t.url, 1, 'tools/call', { name: 'region_sql', arguments: args }), 'Mcp-Param-Region');
    });
  });

  describe('MCP-Protocol-Version', () => {
    test('missing → 400 -32020 (#44)', async () => {
      expectHeaderMismatch(await rpc(t.url, 1, 'tools/list', {}, { headers: { 'mcp-protocol-version': undefined } }), 'MCP-Protocol-Version');
    });

    test("differs from the body's _meta version → 400 -32020 (#45)", async () => {
      const message = body(1, 'tools/list');
      (message.params._meta as Record<string, unknown>)['io.modelcontextprotocol/protocolVersion'] = '1900-01-01';
      const res = await send(t.url, { headers: standardHeaders(message), body: JSON.stringify(message) });
      expectHeaderMismatch(res, 'MCP-Protocol-Version');
    });

    test('equal but unsupported → 400 -32022 with supported/requested (#46)', async () => {
      const message = body(1, 'tools/list');
      (message.params._meta as Record<string, unknown>)['io.modelcontextprotocol/protocolVersion'] = '1900-01-01';
      const res = await send(t.url, { headers: { ...standardHeaders(message), 'mcp-protocol-version': '1900-01-01' }, body: JSON.stringify(message) });
      expect(res.status).toBe(400);
      expect(res.json.error).toMatchObject({ code: -32022, data: { supported: ['2026-07-28'], requested: '1900-01-01' } });
    });

    test('checked after _meta: a body without _meta is -32602 even without the header', async () => {
      const res = await postRaw(t.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }), {
        'mcp-protocol-version': undefined,
        'mcp-method': 'tools/list',
      });
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe(-32602);
    });
  });

  describe('Mcp-Method (#47)', () => {
    test('missing → 400 -32020', async () => {
      expectHeaderMismatch(await rpc(t.url, 1, 'tools/list', {}, { headers: { 'mcp-method': undefined } }), 'Mcp-Method');
    });

    test('values are case-sensitive: TOOLS/LIST ≠ tools/list → 400 -32020', async () => {
      expectHeaderMismatch(await rpc(t.url, 1, 'tools/list', {}, { headers: { 'mcp-method': 'TOOLS/LIST' } }), 'Mcp-Method');
    });

    test('names are case-insensitive: mcp-method / MCP-METHOD are fine', async () => {
      expect((await rpc(t.url, 1, 'tools/list', {}, { headers: { 'mcp-method': undefined, 'MCP-METHOD': 'tools/list' } })).status).toBe(200);
      expect((await rpc(t.url, 2, 'tools/list', {}, { headers: { 'Mcp-Method': undefined, 'mcp-method': 'tools/list' } })).status).toBe(200);
    });

    test('a different method → 400 -32020', async () => {
      expectHeaderMismatch(await rpc(t.url, 1, 'tools/list', {}, { headers: { 'mcp-method': 'prompts/list' } }), 'Mcp-Method');
    });

    test('is not base64-decoded (only Mcp-Name and Mcp-Param-* are)', async () => {
      expectHeaderMismatch(
        await rpc(t.url, 1, 'tools/list', {}, { headers: { 'mcp-method': `=?base64?${Buffer.from('tools/list').toString('base64')}?=` } }),
        'Mcp-Method',
      );
    });
  });

  describe('Mcp-Name (#48)', () => {
    const call = { name: 'echo', arguments: { text: 'hi' } };

    test('tools/call with a mismatching Mcp-Name → 400 -32020', async () => {
      expectHeaderMismatch(await rpc(t.url, 1, 'tools/call', call, { headers: { 'mcp-name': 'bar' } }), 'Mcp-Name');
    });

    test('tools/call without Mcp-Name → 400 -32020', async () => {
      expectHeaderMismatch(await rpc(t.url, 1, 'tools/call', call, { headers: { 'mcp-name': undefined } }), 'Mcp-Name');
    });

    test('surrounding whitespace is stripped: "  echo " matches', async () => {
      const res = await rpc(t.url, 1, 'tools/call', call, { headers: { 'mcp-name': '  echo \t' } });
      expect(res.status).toBe(200);
      expect(res.json.result.content[0].text).toBe('hi');
    });

    test('values are case-sensitive: ECHO ≠ echo', async () => {
      expectHeaderMismatch(await rpc(t.url, 1, 'tools/call', call, { headers: { 'mcp-name': 'ECHO' } }), 'Mcp-Name');
    });

    test('resources/read compares with params.uri', async () => {
      expect((await rpc(t.url, 1, 'resources/read', { uri: 'mem://a' })).status).toBe(200);
      expectHeaderMismatch(await rpc(t.url, 2, 'resources/read', { uri: 'mem://a' }, { headers: { 'mcp-name': 'mem://b' } }), 'Mcp-Name', 2);
      expectHeaderMismatch(await rpc(t.url, 3, 'resources/read', { uri: 'mem://a' }, { headers: { 'mcp-name': undefined } }), 'Mcp-Name', 3);
    });

    test('prompts/get compares with params.name', async () => {
      expect((await rpc(t.url, 1, 'prompts/get', { name: 'greet', arguments: { name: 'Ada' } })).status).toBe(200);
      expectHeaderMismatch(
        await rpc(t.url, 2, 'prompts/get', { name: 'greet', arguments: { name: 'Ada' } }, { headers: { 'mcp-name': 'other' } }),
        'Mcp-Name',
        2,
      );
    });

    test('ignored on methods that do not use it', async () => {
      expect((await rpc(t.url, 1, 'tools/list', {}, { headers: { 'mcp-name': 'whatever' } })).status).toBe(200);
    });

    test('checked before routing: a mismatch on an unknown tool is still -32020', async () => {
      expectHeaderMismatch(await rpc(t.url, 1, 'tools/call', { name: 'nope' }, { headers: { 'mcp-name': 'other' } }), 'Mcp-Name');
    });
  });

  test('a legacy initialize on a modern-only endpoint → 400 naming 2026-07-28 (#63)', async () => {
    const modern = await injectApp({ servers: [FixtureServer], eras: 'modern' });
    const res = await send(modern.url, {
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'old', version: '1' } },
      }),
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: -32022, data: { supported: ['2026-07-28'], requested: '2025-11-25' } });
    expect(res.json.error.message).toContain('2026-07-28');
    expect(res.headers['mcp-session-id']).toBeUndefined();
    await modern.close();
  });
});
