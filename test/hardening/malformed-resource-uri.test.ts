// Hardening item 5: a resources/read whose URI holds a malformed percent-escape (`%zz`, a lone
// `%E9`, a cut UTF-8 sequence) reached -32603, with nothing logged. It is a resource that does not
// exist: -32602 "Resource not found" (-32002 in a legacy session), and the server keeps serving.
// Real mcp-serve child processes, over stdio (both eras) and HTTP.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { rpc } from '../../packages/fastify/test/support/http.js';
import { serveHttpProcess } from '../../packages/fastify/test/support/cli-process.js';
import { request, StdioProcess } from '@decorum-internal/test-support';

const FIXTURE = 'test/fixtures/iri-resources.ts';
const MALFORMED = ['test://template/%zz/data', 'notes://%E9', 'notes://caf%C3'];
const notFound = (uri: string) => ({ code: -32602, message: `Resource not found: ${uri}`, data: { uri } });
const contentsOf = (result: any) => JSON.parse(result.contents[0].text);

describe('over stdio', () => {
  const server = StdioProcess.serve(FIXTURE);
  afterAll(async () => {
    server.child.stdin.end();
    await server.exit();
  });

  test.each(MALFORMED)('%s → -32602 Resource not found, and the process keeps serving', async (uri) => {
    expect((await server.request(request(`bad ${uri}`, 'resources/read', { uri }))).error).toEqual(notFound(uri));
    const after = await server.request(request(`after ${uri}`, 'resources/read', { uri: 'notes://ok' }));
    expect(contentsOf(after.result)).toEqual({ name: 'ok', uri: 'notes://ok' });
    expect(server.stderr).not.toMatch(/URIError|"level":(50|60)/);
  });
});

describe('over stdio, in a legacy (2025-11-25) session', () => {
  const server = StdioProcess.serve(FIXTURE);
  afterAll(async () => {
    server.child.stdin.end();
    await server.exit();
  });

  test('each malformed URI → -32002 Resource not found, and the session keeps serving', async () => {
    await server.request({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
    });
    server.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    for (const uri of MALFORMED) {
      const response = await server.request({ jsonrpc: '2.0', id: `bad ${uri}`, method: 'resources/read', params: { uri } });
      expect(response.error).toMatchObject({ code: -32002, data: { uri } });
    }
    const after = await server.request({ jsonrpc: '2.0', id: 'after', method: 'resources/read', params: { uri: 'notes://ok' } });
    expect(contentsOf(after.result)).toEqual({ name: 'ok', uri: 'notes://ok' });
  });
});

describe('over HTTP', () => {
  let served: Awaited<ReturnType<typeof serveHttpProcess>>;
  beforeAll(async () => {
    served = await serveHttpProcess([FIXTURE, '--http', '--port', '0']);
  });
  afterAll(() => {
    served?.child.kill('SIGKILL');
  });

  test.each(MALFORMED)('%s → 200 with -32602 Resource not found', async (uri) => {
    const res = await rpc(served.url, 1, 'resources/read', { uri });
    expect(res.status).toBe(200);
    expect(res.json.error).toEqual(notFound(uri));
    expect(served.stderr()).not.toMatch(/URIError|"level":(50|60)/);
  });
});
