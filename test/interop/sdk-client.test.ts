import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { WeatherServer } from '../../examples/weather/src/weather.js';
import { MCP_SERVE, ROOT, serveHttpProcess } from '../../packages/fastify/test/support/cli-process.js';
import { startApp } from '../../packages/fastify/test/support/app.js';

const run = promisify(execFile);
const CLIENT = `${ROOT}test/interop/clients/sdk-client.mjs`;

/** Runs the official client script and returns what it printed. */
async function sdkClient(...args: string[]): Promise<any> {
  const { stdout } = await run(process.execPath, [CLIENT, ...args], { cwd: ROOT, timeout: 20_000 }).catch((error: { stdout?: string }) => ({
    stdout: error.stdout ?? '',
  }));
  const out = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}');
  if (out.failed) throw new Error(`the SDK client failed: ${out.failed}`);
  return out;
}

function expectWeather(out: any) {
  expect(out).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28', serverInfo: { name: 'weather', version: '1.0.0' } });
  expect(out.tools.map((t: { name: string }) => t.name)).toEqual(['weather_current', 'weather_forecast', 'weather_alerts_toggle']);
  expect(out.call).toMatchObject({
    isError: false,
    content: [{ type: 'text', text: 'Current weather in London:\nTemperature: 57°F\nConditions: Light rain' }],
  });
  expect(out.unknownCity).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('Atlantis') }] });
  expect(out.unknownTool).toEqual({ code: -32602, message: expect.stringContaining('no_such_tool') });
  expect(out.prompt.messages[0].content.text).toContain('Tokyo');
  expect(JSON.parse(out.resource.contents[0].text)).toEqual(['new york', 'london', 'tokyo']);
}

/** Acceptance: the official client `@modelcontextprotocol/client` (pinned), configured for 2026-07-28. */
describe('interop with @modelcontextprotocol/client', () => {
  test('lists and calls the weather example over HTTP (mcp-serve --http)', async () => {
    const served = await serveHttpProcess(['examples/weather/dist/weather.js', '--http', '--port', '0']);
    try {
      expectWeather(await sdkClient('weather', 'http', served.url));
    } finally {
      served.child.kill('SIGTERM');
      await served.exited;
    }
  });

  test('lists and calls the weather example over stdio (mcp-serve)', async () => {
    expectWeather(await sdkClient('weather', 'stdio', process.execPath, MCP_SERVE, 'examples/weather/dist/weather.js'));
  });

  test('the plugin mounted in a Fastify app (from source) serves the client too', async () => {
    const t = await startApp({ servers: [WeatherServer], path: '/api/mcp' });
    try {
      expectWeather(await sdkClient('weather', 'http', t.url));
    } finally {
      await t.close();
    }
  });

  test('progress over SSE and x-mcp-header arguments mirrored by the client into Mcp-Param-* headers', async () => {
    const served = await serveHttpProcess(['packages/fastify/test/fixtures/http-server.ts', '--http', '--port', '0']);
    try {
      const out = await sdkClient('fixture', 'http', served.url);
      expect(out.counted.content[0].text).toBe('counted to 3');
      expect(out.progress).toEqual([1, 2, 3].map((i) => ({ progress: i, total: 3, message: `step ${i}` })));
      // Passing our header validation proves the client sent matching (base64 where needed) headers.
      expect(JSON.parse(out.located.content[0].text)).toEqual({ region: 'eu-west1', shard: 7, note: ' Grüße, 世界 ' });
    } finally {
      served.child.kill('SIGTERM');
      await served.exited;
    }
  });
});
