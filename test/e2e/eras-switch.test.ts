import { spawnSync } from 'node:child_process';
import { serveHttpProcess } from '../../packages/fastify/test/support/cli-process.js';
import { rpc } from '../../packages/fastify/test/support/http.js';
import { initializeSession, INIT_PARAMS, legacyPost } from '../../packages/fastify/test/support/legacy-client.js';
import { initializeParams, request, MCP_SERVE, ROOT, StdioProcess } from '@decorum-internal/test-support';

/**
 * The `eras` switch where users set it: `mcp-serve --eras` over stdio and HTTP, and
 * `serveStdio({ eras })` called directly. A wrong value stops the start with a clear error.
 */
const WEATHER = `${ROOT}examples/weather/dist/weather.js`;
/** serveStdio([WeatherServer], { eras: <argument> }) in a plain Node process. */
const SERVE_STDIO = `${ROOT}test/fixtures/serve-stdio-eras.mjs`;
const INIT = { jsonrpc: '2.0', id: 'init', method: 'initialize', params: initializeParams() };

describe('a wrong eras value stops the start', () => {
  test('serveStdio({ eras: "bogus" }): DECORUM_ERR_INVALID_ERAS naming the values, exit 1', () => {
    const run = spawnSync(process.execPath, [SERVE_STDIO, 'bogus'], { cwd: ROOT, encoding: 'utf8', timeout: 10_000 });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('DecorumStartupError: DECORUM_ERR_INVALID_ERAS: eras must be one of dual, modern, legacy (got "bogus")');
  });

  test.each([[[]], [['--http', '--port', '0']]])('mcp-serve --eras bogus %j: a one-line usage error, exit 1', (extra) => {
    const run = spawnSync(process.execPath, [MCP_SERVE, WEATHER, ...extra, '--eras', 'bogus'], { cwd: ROOT, encoding: 'utf8', timeout: 10_000 });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error: option '--eras <eras>' argument 'bogus' is invalid\. must be dual, modern or legacy$/m);
  });
});

describe('serveStdio({ eras }) used directly', () => {
  let server: StdioProcess;
  afterEach(async () => {
    server.child.stdin.end();
    await server.exit();
  });

  test("'legacy': a session from the first message; a request before initialize is refused clearly", async () => {
    server = new StdioProcess([SERVE_STDIO, 'legacy']);
    expect((await server.request(request(1, 'tools/list'))).error).toEqual({
      code: -32600,
      message: 'Invalid Request: tools/list before initialize; send initialize first',
    });
    expect((await server.request(INIT)).result.protocolVersion).toBe('2025-11-25');
    expect((await server.request({ jsonrpc: '2.0', id: 2, method: 'tools/list' })).result.tools).toHaveLength(3);
  });

  test("'modern': initialize is -32022; 2026-07-28 requests are served", async () => {
    server = new StdioProcess([SERVE_STDIO, 'modern']);
    expect((await server.request(INIT)).error).toMatchObject({ code: -32022, data: { supported: ['2026-07-28'] } });
    expect((await server.request(request(1, 'tools/list'))).result.tools).toHaveLength(3);
  });
});

describe('mcp-serve --http --eras', () => {
  test('legacy: initialize opens a session; a 2026-07-28 request without one is refused (400)', async () => {
    const http = await serveHttpProcess([WEATHER, '--http', '--port', '0', '--eras', 'legacy']);
    try {
      expect((await rpc(http.url, 1, 'tools/list')).status).toBe(400);
      const { id, result } = await initializeSession(http.url);
      expect(result.protocolVersion).toBe('2025-11-25');
      const list = await legacyPost(http.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' });
      expect(list.json.result.tools).toHaveLength(3);
    } finally {
      http.child.kill('SIGTERM');
      await http.exited;
    }
  });

  test('modern: initialize is -32022; 2026-07-28 requests are served', async () => {
    const http = await serveHttpProcess([WEATHER, '--http', '--port', '0', '--eras', 'modern']);
    try {
      const init = await legacyPost(http.url, { jsonrpc: '2.0', id: 0, method: 'initialize', params: INIT_PARAMS });
      expect(init.json.error).toMatchObject({ code: -32022, data: { supported: ['2026-07-28'] } });
      expect(init.headers['mcp-session-id']).toBeUndefined();
      expect((await rpc(http.url, 1, 'tools/list')).json.result.tools).toHaveLength(3);
    } finally {
      http.child.kill('SIGTERM');
      await http.exited;
    }
  });
});
