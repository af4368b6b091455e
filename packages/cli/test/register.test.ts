import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { transformSync } from 'esbuild';
import { meta, until, ROOT } from '@decorum-internal/test-support';

const OWN_APP = 'packages/cli/test/fixtures/own-app.ts';

/** The 1-based line of `text` in the fixture, so the assertion follows the file instead of a fixed number. */
function lineOf(file: string, text: string): number {
  return (
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .findIndex((line) => line.includes(text)) + 1
  );
}

/** A child process whose output is collected as it comes. */
function start(args: string[], cwd = ROOT): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, DECORUM_LOG_LEVEL: 'warn' } });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return { child, output: () => output };
}

/** POSTs one 2026-07-28 request with the headers a conforming client sends. */
async function mcp(url: string, id: number, method: string, params: Record<string, unknown> = {}) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
  };
  if (typeof params.name === 'string') headers['mcp-name'] = params.name;
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta() } }) });
  return (await response.json()) as { result: Record<string, any> };
}

describe('node --import @decorum/cli/register (your own app in development)', () => {
  let app: ReturnType<typeof start> | undefined;
  afterEach(() => {
    app?.child.kill('SIGKILL');
    app = undefined;
  });

  it('runs a TypeScript Fastify app that mounts mcpPlugin, with decorator metadata and .ts lines in stack traces', async () => {
    app = start(['--import', '@decorum/cli/register', OWN_APP]);
    const running = app;
    const base = await until(running.output, () => /^listening (http:\/\/127\.0\.0\.1:\d+)$/m.exec(running.output())?.[1], 30_000);

    // The tool's input schema comes from its DTO's design:paramtypes, which tsx and esbuild drop.
    const list = await mcp(`${base}/mcp`, 1, 'tools/list');
    expect(list.result.tools).toEqual([
      expect.objectContaining({
        name: 'repeat',
        inputSchema: expect.objectContaining({ properties: { word: { type: 'string' }, times: { type: 'integer', minimum: 1 } }, required: ['word', 'times'] }),
      }),
    ]);
    const call = await mcp(`${base}/mcp`, 2, 'tools/call', { name: 'repeat', arguments: { word: 'hi', times: 2 } });
    expect(call.result.content).toEqual([{ type: 'text', text: 'hi hi' }]);

    const boom = await fetch(`${base}/boom`);
    expect(boom.status).toBe(500);
    const { stack } = (await boom.json()) as { stack: string };
    expect(stack).toContain(`${join(ROOT, OWN_APP)}:${lineOf(OWN_APP, "throw new Error('boom from the own app')")}:`);
  }, 60_000);

  describe('in a project of its own', () => {
    let dir: string;
    beforeEach(() => {
      // A project outside the repository whose node_modules is the repository's (for @decorum/*).
      dir = mkdtempSync(join(tmpdir(), 'decorum-register-'));
      symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('without it, the app compiled as tsx compiles it fails with DECORUM_ERR_MISSING_METADATA, whose message names the register hook', () => {
      // esbuild is what tsx runs: legacy decorators, but no design:* metadata.
      const compiled = transformSync(readFileSync(join(ROOT, OWN_APP), 'utf8'), {
        loader: 'ts',
        format: 'esm',
        tsconfigRaw: { compilerOptions: { experimentalDecorators: true } },
      }).code;
      writeFileSync(join(dir, 'app.mjs'), compiled);
      const run = spawnSync(process.execPath, ['app.mjs'], { cwd: dir, encoding: 'utf8', timeout: 30_000 });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('DECORUM_ERR_MISSING_METADATA: OwnApp.repeat has parameters but no decorator metadata (design:paramtypes)');
      expect(run.stderr).toContain('start it with node --import @decorum/cli/register src/app.ts');
    }, 40_000);

    it('works with node --watch: a change in an imported .ts file restarts the app with the new code', async () => {
      writeFileSync(join(dir, 'app.ts'), "import { word } from './word.js';\n\nconsole.log(`word: ${word}`);\n");
      writeFileSync(join(dir, 'word.ts'), "export const word: string = 'one';\n");
      app = start(['--watch', '--import', '@decorum/cli/register', 'app.ts'], dir);
      const watched = app;
      await until(watched.output, () => watched.output().includes('word: one'), 30_000);
      writeFileSync(join(dir, 'word.ts'), "export const word: string = 'two';\n");
      await until(watched.output, () => watched.output().includes('word: two'), 30_000);
    }, 70_000);
  });
});
