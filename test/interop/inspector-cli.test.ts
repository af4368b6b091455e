import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { serveHttpProcess } from '../../packages/fastify/test/support/cli-process.js';
import { MCP_SERVE, ROOT } from '../support/stdio-process.js';

/**
 * The MCP Inspector CLI (a pinned devDependency) in both its eras — `legacy` (initialize, 2025-11-25)
 * and `modern` (2026-07-28) — lists and calls the weather example's tools, reads a resource and gets
 * a prompt, over stdio and over Streamable HTTP. (The CLI answers no elicitation and shows no
 * notifications; the SDK clients in dual-era-clients.test.ts cover those.)
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

async function walkthrough(target: string[], era: 'legacy' | 'modern'): Promise<void> {
  const at = [...target, '--protocol-era', era];
  const list = await inspector([...at, '--method', 'tools/list']);
  expect(list.tools.map((t: { name: string }) => t.name)).toEqual(['weather_current', 'weather_forecast', 'weather_alerts_toggle']);
  expect(list.tools[0].inputSchema.required).toEqual(['location']);
  const call = await inspector([...at, '--method', 'tools/call', '--tool-name', 'weather_current', '--tool-arg', 'location=London', 'units=imperial']);
  expect(call).toMatchObject({ isError: false, content: [{ type: 'text', text: expect.stringContaining('57°F') }] });
  const read = await inspector([...at, '--method', 'resources/read', '--uri', 'weather://cities/tokyo']);
  expect(JSON.parse(read.contents[0].text)).toMatchObject({ city: 'tokyo', conditions: 'Sunny' });
  const prompt = await inspector([...at, '--method', 'prompts/get', '--prompt-name', 'weather_report', '--prompt-args', 'location=Tokyo', 'style=formal']);
  expect(prompt.messages[0].content.text).toContain('formal three-sentence weather report for Tokyo');
}

describe.each(['legacy', 'modern'] as const)('MCP Inspector CLI interop (%s era)', (era) => {
  test('stdio: tools, a resource, a prompt', async () => {
    await walkthrough([process.execPath, MCP_SERVE, WEATHER], era);
  });

  test('HTTP: tools, a resource, a prompt', async () => {
    const server = await serveHttpProcess([WEATHER, '--http', '--port', '0']);
    try {
      await walkthrough([server.url], era);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });
});
