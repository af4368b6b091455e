import { request, MCP_SERVE, StdioProcess } from '@decorum-internal/test-support';
import { spawnSync } from 'node:child_process';

/** The weather example served by the real `mcp-serve` binary as a child process, over the wire. */
describe('mcp-serve on the weather example (stdio)', () => {
  let server: StdioProcess;
  beforeAll(() => {
    server = StdioProcess.serve('examples/weather/dist/weather.js');
  });
  afterAll(() => server.kill());

  test('discover → tools/list → tools/call', async () => {
    const discover = await server.request(request('discover-1', 'server/discover'));
    expect(discover.result).toMatchObject({
      resultType: 'complete',
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: {}, resources: {}, prompts: {} },
      instructions: expect.any(String),
      ttlMs: expect.any(Number),
      cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'weather', version: '1.0.0' } },
    });
    const list = await server.request(request(1, 'tools/list'));
    expect(list.result.tools.map((t: { name: string }) => t.name)).toEqual(['weather_current', 'weather_forecast', 'weather_alerts_toggle']);
    expect(list.result.tools.slice(0, 1)).toEqual([
      {
        name: 'weather_current',
        title: 'Weather Information Provider',
        description: 'Get current weather information for a location',
        inputSchema: {
          type: 'object',
          properties: {
            location: { type: 'string', description: 'City name or zip code', minLength: 1 },
            units: { type: 'string', enum: ['metric', 'imperial', 'kelvin'], default: 'metric', description: 'Unit system of the temperature' },
          },
          required: ['location'],
        },
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
    ]);
    expect(list.result).toMatchObject({ resultType: 'complete', ttlMs: 300_000, cacheScope: 'public' });
    const callResult = await server.request(request(2, 'tools/call', { name: 'weather_current', arguments: { location: 'New York', units: 'imperial' } }));
    expect(callResult.result).toEqual({
      resultType: 'complete',
      content: [{ type: 'text', text: 'Current weather in New York:\nTemperature: 72°F\nConditions: Partly cloudy' }],
      isError: false,
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'weather', version: '1.0.0' } },
    });
  });

  test('resources and prompts', async () => {
    const read = await server.request(request(3, 'resources/read', { uri: 'weather://cities/London' }));
    expect(JSON.parse(read.result.contents[0].text)).toMatchObject({ city: 'London', celsius: 14 });
    const prompt = await server.request(request(4, 'prompts/get', { name: 'weather_report', arguments: { location: 'Tokyo' } }));
    expect(prompt.result.messages[0].content.text).toContain('Tokyo');
  });

  test('bad input gets the right error and the process keeps serving', async () => {
    const cases: Array<[string, unknown, number]> = [
      ['malformed JSON', '{"jsonrpc":"2.0",', -32700],
      ['batch', JSON.stringify([request('b1', 'server/discover')]), -32600],
      ['null id', JSON.stringify({ jsonrpc: '2.0', id: null, method: 'tools/list', params: {} }), -32600],
    ];
    for (const [name, line, code] of cases) {
      server.send(line);
      const error = await server.waitFor((m) => m.error?.code === code && !('id' in m));
      expect({ name, error: error.error.code }).toEqual({ name, error: code });
    }
    expect((await server.request({ jsonrpc: '2.0', id: 'no-meta', method: 'tools/list', params: {} })).error.code).toBe(-32602);
    expect(
      (
        await server.request({
          jsonrpc: '2.0',
          id: 'pv-only',
          method: 'tools/list',
          params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
        })
      ).error.code,
    ).toBe(-32602);
    const version = await server.request({
      ...request('v', 'tools/list'),
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '1900-01-01', 'io.modelcontextprotocol/clientCapabilities': {} } },
    });
    expect(version.error).toMatchObject({ code: -32022, data: { supported: ['2026-07-28'], requested: '1900-01-01' } });
    expect((await server.request(request('m', 'foo/bar'))).error.code).toBe(-32601);
    // A dual-era process: initialize opens its legacy session; modern-shaped requests stay modern.
    expect(
      (
        await server.request({
          jsonrpc: '2.0',
          id: 'init',
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
        })
      ).result.protocolVersion,
    ).toBe('2025-11-25');
    expect((await server.request(request('u', 'tools/call', { name: 'nope', arguments: {} }))).error).toEqual({ code: -32602, message: 'Unknown tool: nope' });
    const invalid = await server.request(request('i', 'tools/call', { name: 'weather_current', arguments: { units: 'celsius' } }));
    expect(invalid.result.isError).toBe(true);
    expect(invalid.result.content[0].text).toMatch(/\/location[\s\S]*\/units|\/units[\s\S]*\/location/);
    expect((await server.request(request('c', 'tools/list', { cursor: 'forged' }))).error.code).toBe(-32602);
    expect((await server.request(request('r', 'resources/read', { uri: 'weather://nowhere' }))).error).toMatchObject({
      code: -32602,
      data: { uri: 'weather://nowhere' },
    });
    expect((await server.request(request('p', 'prompts/get', { name: 'weather_report', arguments: {} }))).error.code).toBe(-32602);
    // Still serving.
    expect((await server.request(request('after', 'tools/call', { name: 'weather_current', arguments: { location: 'Tokyo' } }))).result.isError).toBe(false);
    // stdout carried JSON-RPC only, and never a request.
    for (const message of server.messages) {
      expect(message.jsonrpc).toBe('2.0');
      expect('method' in message && 'id' in message).toBe(false);
    }
  });

  test('a line over the size limit is refused without a crash', async () => {
    const big = StdioProcess.serve('examples/weather/dist/weather.js', ['--max-line-bytes', String(64 * 1024)]);
    try {
      big.send(JSON.stringify(request('huge', 'tools/call', { name: 'weather_current', arguments: { location: 'x'.repeat(100_000) } })));
      const refused = await big.waitFor((m) => m.error?.code === -32600);
      expect(refused.error.message).toContain('limit');
      expect((await big.request(request('ok', 'server/discover'))).result.resultType).toBe('complete');
    } finally {
      big.kill();
    }
  });
});

describe('mcp-serve process lifecycle', () => {
  test('exits promptly on stdin EOF, after answering what was in flight', async () => {
    const proc = StdioProcess.serve('examples/weather/dist/weather.js');
    proc.send(request('last', 'server/discover'));
    proc.child.stdin.end();
    expect(await proc.exit(5000)).toBe(0);
    expect(proc.messages.find((m) => m.id === 'last')?.result.resultType).toBe('complete');
  });

  test('exits promptly on SIGTERM', async () => {
    const proc = StdioProcess.serve('examples/weather/dist/weather.js');
    await proc.request(request('up', 'server/discover'));
    proc.child.kill('SIGTERM');
    expect(await proc.exit(5000)).toBe(0);
  });

  test('serves a .ts module through the swc loader, keeping decorator metadata', async () => {
    const proc = StdioProcess.serve('examples/weather/src/weather.ts');
    try {
      const list = await proc.request(request(1, 'tools/list'));
      expect(list.result.tools[0].inputSchema.required).toEqual(['location']);
    } finally {
      proc.kill();
    }
  });

  test.each([
    ['a missing file', ['does/not/exist.js'], /cannot find module file does\/not\/exist\.js/],
    ['a module with no servers', ['packages/cli/test/fixtures/no-servers.mjs'], /exports no Decorum server/],
    ['a module that does not compile', ['packages/cli/test/fixtures/broken.ts'], /cannot load packages\/cli\/test\/fixtures\/broken\.ts/],
  ])('%s is a clear error', async (_name, args, message) => {
    const proc = StdioProcess.serve(args[0]);
    expect(await proc.exit(10_000)).toBe(1);
    expect(proc.stderr).toMatch(message);
    expect(proc.stderr).not.toMatch(/\n\s+at /);
  });

  test('--help and --version', async () => {
    const help = spawnSync(process.execPath, [MCP_SERVE, '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/Usage: mcp-serve .*<module>[\s\S]*--http[\s\S]*--port/);
    const version = spawnSync(process.execPath, [MCP_SERVE, '--version'], { encoding: 'utf8' });
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
