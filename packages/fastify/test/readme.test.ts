import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rpc } from './support/http.js';
import { ROOT, serveHttpProcess } from './support/cli-process.js';
import { runnable, start } from './support/snippet-process.js';

const README = readFileSync(join(ROOT, 'packages/fastify/README.md'), 'utf8');

/** The code block that follows `<!-- check: name -->` in the README. */
function snippet(name: string): string {
  const found = new RegExp(`<!-- check: ${name} -->\\n\`\`\`ts\\n([\\s\\S]*?)\`\`\``).exec(README);
  if (!found) throw new Error(`README has no snippet "${name}"`);
  return found[1];
}

/** The README's snippets work as written. */
describe('README snippets', () => {
  let dir: string;
  beforeAll(() => {
    // Inside the repository, so that `fastify` and `@decorum/fastify` resolve as they would in an app.
    dir = mkdtempSync(join(ROOT, 'packages/fastify/test/.readme-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('mounting into an existing app under a prefix, next to other routes', async () => {
    const file = join(dir, 'mount.mjs');
    writeFileSync(file, runnable(snippet('mount'), '\nprocess.stderr.write(`MCP endpoint: http://127.0.0.1:${app.server.address().port}/api/mcp\\n`);\n'));
    const { url, stop } = await start(file);
    try {
      const call = await rpc(url, 1, 'tools/call', { name: 'weather_current', arguments: { location: 'London' } });
      expect(call.json.result.content[0].text).toContain('Light rain');
      const base = url.replace('/api/mcp', '');
      expect(JSON.parse(await (await fetch(`${base}/health`)).text())).toEqual({ ok: true });
      expect(JSON.parse(await (await fetch(`${base}/api/status`)).text())).toEqual({ up: true });
    } finally {
      await stop();
    }
  });

  test('serveHttp', async () => {
    const file = join(dir, 'serve.mjs');
    writeFileSync(file, runnable(snippet('serve')));
    const { url, stop } = await start(file);
    try {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      expect((await rpc(url, 1, 'tools/list')).json.result.tools[0].name).toBe('weather_current');
    } finally {
      await stop();
    }
  });

  test("an own Fastify instance with the standalone app's timeouts", async () => {
    const file = join(dir, 'timeouts.mjs');
    const tail =
      '\nconst { port } = app.server.address();\nprocess.stderr.write(`MCP endpoint: http://127.0.0.1:${port}/mcp?${app.server.requestTimeout},${app.server.headersTimeout}\\n`);\n';
    writeFileSync(file, runnable(snippet('timeouts'), tail));
    const { url, stop } = await start(file);
    try {
      expect(url).toMatch(/\?30000,10000$/);
      expect((await rpc(url.replace(/\?.*/, ''), 1, 'tools/list')).json.result.tools[0].name).toBe('weather_current');
    } finally {
      await stop();
    }
  });

  test('the x-mcp-header example (DTO and TypeBox), served by mcp-serve --http', async () => {
    const found = /## Mirroring arguments[\s\S]*?```ts\n([\s\S]*?)```/.exec(README);
    const file = join(dir, 'sql.ts');
    writeFileSync(file, found![1]);
    const served = await serveHttpProcess([file, '--http', '--port', '0']);
    try {
      for (const name of ['execute_sql', 'explain_sql']) {
        const args = { name, arguments: { region: 'eu', query: 'SELECT 1' } };
        expect((await rpc(served.url, 1, 'tools/call', args, { headers: { 'mcp-param-region': 'eu' } })).status).toBe(200);
        const missing = await rpc(served.url, 2, 'tools/call', args);
        expect(missing.status).toBe(400);
        expect(missing.json.error.message).toContain('Mcp-Param-Region');
      }
    } finally {
      served.child.kill('SIGTERM');
      await served.exited;
    }
  });
});
