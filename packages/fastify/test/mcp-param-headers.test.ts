import { rpc } from './support/http.js';
import { injectApp, type TestApp } from './support/app.js';
import { FixtureServer } from './support/fixture-server.js';

const b64 = (s: string) => `=?base64?${Buffer.from(s, 'utf8').toString('base64')}?=`;

/** `x-mcp-header` arguments mirrored into `Mcp-Param-{Name}` (spec "Custom Headers from Tool Parameters"; #50–#52). */
describe('Mcp-Param-* headers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await injectApp({ servers: [FixtureServer] });
  });
  afterAll(() => t.close());

  const call = (id: number, args: Record<string, unknown>, headers: Record<string, string | undefined>) =>
    rpc(t.url, id, 'tools/call', { name: 'region_sql', arguments: { query: 'SELECT 1', ...args } }, { headers });

  function expectMismatch(res: { status: number; json: any }, header: string) {
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe(-32020);
    expect(res.json.error.message).toContain(header);
  }

  test('matching Region and N=42 sent as "42.0" → 200: integers compare numerically (#50)', async () => {
    const res = await call(1, { region: 'us-west1', n: 42 }, { 'mcp-param-region': 'us-west1', 'mcp-param-n': '42.0' });
    expect(res.status).toBe(200);
    expect(res.json.result.content[0].text).toBe('ran in us-west1 n=42');
  });

  test.each(['42', '+42', '4.2e1', ' 42 '])('N=42 matches header %j', async (header) => {
    expect((await call(1, { region: 'r', n: 42 }, { 'mcp-param-region': 'r', 'mcp-param-n': header })).status).toBe(200);
  });

  test.each(['43', '42.5', 'forty-two', '0x2a', ''])('N=42 does not match header %j', async (header) => {
    expectMismatch(await call(1, { region: 'r', n: 42 }, { 'mcp-param-region': 'r', 'mcp-param-n': header }), 'Mcp-Param-N');
  });

  test('missing Mcp-Param-Region; wrong Mcp-Param-Region → 400 -32020 both (#51)', async () => {
    expectMismatch(await call(1, { region: 'us-west1' }, {}), 'Mcp-Param-Region');
    const res = await call(2, { region: 'us-west1' }, { 'mcp-param-region': 'eu-west1' });
    expectMismatch(res, 'Mcp-Param-Region');
    expect(res.json.error.message).toBe("Header mismatch: Mcp-Param-Region header value 'eu-west1' does not match body value 'us-west1'");
  });

  test('region: null and no header → not rejected for the header, only by the tool (#52)', async () => {
    const res = await call(1, { region: null }, {});
    expect(res.status).toBe(200);
    expect(res.json.result.isError).toBe(true);
  });

  test('a header sent for an argument that is absent disagrees with the body → 400', async () => {
    expectMismatch(await call(1, { region: 'r' }, { 'mcp-param-region': 'r', 'mcp-param-n': '1' }), 'Mcp-Param-N');
  });

  test('header names are case-insensitive', async () => {
    expect((await call(1, { region: 'r' }, { 'MCP-PARAM-REGION': 'r' })).status).toBe(200);
  });

  test('header values are case-sensitive', async () => {
    expectMismatch(await call(1, { region: 'us-west1' }, { 'mcp-param-region': 'US-WEST1' }), 'Mcp-Param-Region');
  });

  test('booleans are "true"/"false"', async () => {
    expect((await call(1, { region: 'r', dryRun: true }, { 'mcp-param-region': 'r', 'mcp-param-dry-run': 'true' })).status).toBe(200);
    expect((await call(2, { region: 'r', dryRun: false }, { 'mcp-param-region': 'r', 'mcp-param-dry-run': 'false' })).status).toBe(200);
    expectMismatch(await call(3, { region: 'r', dryRun: true }, { 'mcp-param-region': 'r', 'mcp-param-dry-run': 'TRUE' }), 'Mcp-Param-Dry-Run');
    expectMismatch(await call(4, { region: 'r', dryRun: true }, { 'mcp-param-region': 'r', 'mcp-param-dry-run': '1' }), 'Mcp-Param-Dry-Run');
  });

  test('nested properties are read at their exact path', async () => {
    expect((await call(1, { region: 'r', target: { zone: 'z1' } }, { 'mcp-param-region': 'r', 'mcp-param-zone': 'z1' })).status).toBe(200);
    expectMismatch(await call(2, { region: 'r', target: { zone: 'z1' } }, { 'mcp-param-region': 'r' }), 'Mcp-Param-Zone');
    // `target` present without `zone`: no value at the path, no header expected.
    expect((await call(3, { region: 'r', target: {} }, { 'mcp-param-region': 'r' })).status).toBe(200);
  });

  test.each([
    ['non-ASCII', 'Hello, 世界', '=?base64?SGVsbG8sIOS4lueVjA==?='],
    ['leading/trailing spaces', ' padded ', '=?base64?IHBhZGRlZCA=?='],
    ['a newline', 'line1\nline2', '=?base64?bGluZTEKbGluZTI=?='],
    ['the sentinel pattern itself', '=?base64?literal?=', '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?='],
  ])("the spec's encoding example with %s is decoded before comparing", async (_why, value, header) => {
    const res = await call(1, { region: value }, { 'mcp-param-region': header });
    expect(res.status).toBe(200);
    expect(res.json.result.content[0].text).toBe(`ran in ${value}`);
  });

  test('a plain value may also be sent encoded', async () => {
    expect((await call(1, { region: 'us-west1' }, { 'mcp-param-region': b64('us-west1') })).status).toBe(200);
  });

  test('malformed base64 in Mcp-Param-* → 400 -32020', async () => {
    expectMismatch(await call(1, { region: 'Hello' }, { 'mcp-param-region': '=?base64?SGVsbG8?=' }), 'Mcp-Param-Region');
  });

  test('a recognised Mcp-Param-* header with invalid characters → 400 -32020', async () => {
    const res = await call(1, { region: 'é' }, { 'mcp-param-region': 'é' });
    expectMismatch(res, 'Mcp-Param-Region');
    expect(res.json.error.message).toContain('characters not allowed');
  });

  test('Mcp-Param-* headers matching no annotation are ignored', async () => {
    expect((await call(1, { region: 'r' }, { 'mcp-param-region': 'r', 'mcp-param-unknown': 'x' })).status).toBe(200);
    expect((await rpc(t.url, 2, 'tools/call', { name: 'echo', arguments: { text: 'a' } }, { headers: { 'mcp-param-text': 'b' } })).status).toBe(200);
  });

  test('an integer beyond ±(2^53−1) cannot be mirrored exactly → 400 -32020', async () => {
    expectMismatch(await call(1, { region: 'r', n: 2 ** 60 }, { 'mcp-param-region': 'r', 'mcp-param-n': String(2 ** 60) }), 'Mcp-Param-N');
  });

  test('checked after the tool lookup: an unknown tool is -32602, not a header error', async () => {
    const res = await rpc(t.url, 1, 'tools/call', { name: 'no_such_tool', arguments: { region: 'r' } });
    expect(res.json.error.code).toBe(-32602);
  });
});
