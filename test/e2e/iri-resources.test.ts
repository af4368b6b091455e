import { rpc } from '../../packages/fastify/test/support/http.js';
import { serveHttpProcess } from '../../packages/fastify/test/support/cli-process.js';
import { request, StdioProcess } from '@decorum-internal/test-support';

const FIXTURE = 'test/fixtures/iri-resources.ts';
const b64 = (s: string) => `=?base64?${Buffer.from(s, 'utf8').toString('base64')}?=`;

/** Each read: the URI as sent, and what the handler must have seen. */
const READS = [
  ['notes://café', { name: 'café' }],
  ['notes://caf%C3%A9', { name: 'café' }],
  ['notes://%E6%97%A5%E6%9C%AC', { name: '日本' }],
  ['notes://日本', { name: '日本' }],
  ['test://template/x%20y/data', { id: 'x y' }],
] as const;
// Malformed percent-escapes are hardening cases: test/hardening/malformed-resource-uri.test.ts.

const contentsOf = (result: any) => JSON.parse(result.contents[0].text);

describe('resources/read with URIs as hosts send them, over stdio', () => {
  const server = StdioProcess.serve(FIXTURE);
  afterAll(async () => {
    server.child.stdin.end();
    await server.exit();
  });

  test.each(READS)('%s → the handler sees %j', async (uri, seen) => {
    const response = await server.request(request(uri, 'resources/read', { uri }));
    expect(response.error).toBeUndefined();
    expect(response.result.contents[0].uri).toBe(uri);
    expect(contentsOf(response.result)).toMatchObject(seen);
  });
});

describe('resources/read with URIs as hosts send them, over HTTP', () => {
  let served: Awaited<ReturnType<typeof serveHttpProcess>>;
  beforeAll(async () => {
    served = await serveHttpProcess([FIXTURE, '--http', '--port', '0']);
  });
  afterAll(() => served?.child.kill('SIGKILL'));

  test.each(READS)('%s (Mcp-Name in base64) → the handler sees %j', async (uri, seen) => {
    const res = await rpc(served.url, 1, 'resources/read', { uri }, { headers: { 'mcp-name': b64(uri) } });
    expect(res.status).toBe(200);
    expect(res.json.result.contents[0].uri).toBe(uri);
    expect(contentsOf(res.json.result)).toMatchObject(seen);
  });

  test('an ASCII URI may name itself in plain text: caf%C3%A9', async () => {
    const res = await rpc(served.url, 1, 'resources/read', { uri: 'notes://caf%C3%A9' });
    expect(contentsOf(res.json.result)).toEqual({ name: 'café', uri: 'notes://caf%C3%A9' });
  });
});
