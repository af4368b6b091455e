import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { serveHttpProcess } from '../../packages/fastify/test/support/cli-process.js';
import { MCP_SERVE, ROOT } from '../support/stdio-process.js';

/**
 * The MCP Inspector CLI (a pinned devDependency), in its 2026-07-28 ("modern") era, lists and
 * calls the weather example's tools over stdio and over Streamable HTTP.
 */
const run = promisify(execFile);
const require = createRequire(import.meta.url);
const inspectorPackage = require.resolve('@modelcontextprotocol/inspector/package.json');
const bin = (require(inspectorPackage) as { bin: Record<string, string> }).bin;
const INSPECTOR = join(dirname(inspectorPackage), bin['mcp-inspector'] ?? Object.values(bin)[0]);
const WEATHER = `${ROOT}examples/weather/dist/weather.js`;

async function inspector(args: string[]): Promise<any> {
  const { stdout } = await run(process.execPath, [INSPECTOR, '--cli', ...args], { cwd: ROOT, timeout: 30_000, env: { ...process.env, MCP_CATALOG_PATH: join(ROOT, 'node_modules/.cache/inspector-catalog.json') } });
  return JSON.parse(stdout);
}

describe('MCP Inspector CLI interop', () => {
  test('stdio: tools/list and tools/call', async () => {
    const target = [process.execPath, MCP_SERVE, WEATHER];
    const list = await inspector([...target, '--protocol-era', 'modern', '--method', 'tools/list']);
    expect(list.tools.map((t: { name: string }) => t.name)).toEqual(['weather_current']);
    const call = await inspector([...target, '--protocol-era', 'modern', '--method', 'tools/call', '--tool-name', 'weather_current', '--tool-arg', 'location=Tokyo']);
    expect(call).toMatchObject({ isError: false, content: [{ type: 'text', text: expect.stringContaining('Current weather in Tokyo') }] });
  });

  test('HTTP: tools/list and tools/call', async () => {
    const server = await serveHttpProcess([WEATHER, '--http', '--port', '0']);
    try {
      const list = await inspector([server.url, '--protocol-era', 'modern', '--method', 'tools/list']);
      expect(list.tools[0].inputSchema.required).toEqual(['location']);
      const call = await inspector([server.url, '--protocol-era', 'modern', '--method', 'tools/call', '--tool-name', 'weather_current', '--tool-arg', 'location=London', 'units=imperial']);
      expect(call.content[0].text).toContain('57°F');
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });
});
