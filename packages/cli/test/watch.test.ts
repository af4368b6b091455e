import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { meta, request, until, MCP_SERVE, ROOT, StdioProcess } from '@decorum-internal/test-support';

const SUB = 'io.modelcontextprotocol/subscriptionId';

/** A server module that imports a sibling, so that a change in either must reload. */
function serverSource(tools: string[]): string {
  const methods = tools
    .map((name) => `  @Tool({ input: null, description: 'tool ${name}' })\n  ${name}() {\n    return greeting('${name}');\n  }\n`)
    .join('\n');
  return `import { McpServer, Tool } from '@decorum/core';\nimport { greeting } from './greeting.js';\n\n@McpServer({ name: 'watched', version: '1.0.0' })\nexport class Watched {\n${methods}}\n`;
}
const greetingSource = (word: string) => `export function greeting(name: string): string {\n  return \`${word} from \${name}\`;\n}\n`;

const toolNames = (result: { tools: Array<{ name: string }> }) => result.tools.map((t) => t.name);

describe('mcp-serve MODULE --watch', () => {
  let dir: string;
  let server: string;
  beforeEach(() => {
    // A project outside the repository whose node_modules is the repository's (for @decorum/core).
    dir = mkdtempSync(join(tmpdir(), 'decorum-watch-'));
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    server = join(dir, 'server.ts');
    writeFileSync(server, serverSource(['alpha']));
    writeFileSync(join(dir, 'greeting.ts'), greetingSource('hello'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  describe('over stdio', () => {
    let p: StdioProcess;
    afterEach(() => p.kill());

    it('reloads the module and its imports in the same process, tells listeners, and keeps the last good version when a change breaks it', async () => {
      p = StdioProcess.serve(server, ['--watch']);
      await until(
        () => p.stderr,
        () => p.stderr.includes('mcp-serve: watching'),
      );
      p.send(request('L', 'subscriptions/listen', { notifications: { toolsListChanged: true } }));
      await p.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged');
      expect(toolNames((await p.request(request(1, 'tools/list'))).result)).toEqual(['alpha']);

      writeFileSync(server, serverSource(['alpha', 'beta']));
      const changed = await p.waitFor((m) => m.method === 'notifications/tools/list_changed', 10_000);
      expect(changed.params._meta[SUB]).toBe('L');
      expect(toolNames((await p.request(request(2, 'tools/list'))).result)).toEqual(['alpha', 'beta']);
      expect((await p.request(request(3, 'tools/call', { name: 'beta', arguments: {} }))).result.content[0].text).toBe('hello from beta');

      // A change in an imported file reloads too (same lists: no list_changed needed, new behaviour).
      writeFileSync(join(dir, 'greeting.ts'), greetingSource('bonjour'));
      await until(
        () => p.stderr,
        () => (p.stderr.match(/mcp-serve: reloaded/g) ?? []).length >= 2,
      );
      expect((await p.request(request(4, 'tools/call', { name: 'alpha', arguments: {} }))).result.content[0].text).toBe('bonjour from alpha');

      // Broken: the reason on stderr, the last good version still serving.
      writeFileSync(server, `${serverSource(['alpha', 'beta', 'gamma'])}\nexport const oops = ;\n`);
      await until(
        () => p.stderr,
        () => p.stderr.includes('reload of'),
      );
      expect(p.stderr).toMatch(
        /mcp-serve: reload of \S+server\.ts failed; still serving the last good version: cannot load \S+: \S+server\.ts does not compile/,
      );
      expect(toolNames((await p.request(request(5, 'tools/list'))).result)).toEqual(['alpha', 'beta']);
      expect((await p.request(request(6, 'tools/call', { name: 'beta', arguments: {} }))).result.content[0].text).toBe('bonjour from beta');

      // A start-up error (a duplicate name) is reported the same way and changes nothing.
      writeFileSync(
        server,
        serverSource(['alpha', 'beta']).replace("@Tool({ input: null, description: 'tool beta' })", "@Tool({ name: 'alpha', input: null })"),
      );
      await until(
        () => p.stderr,
        () => (p.stderr.match(/reload of/g) ?? []).length >= 2,
      );
      expect(p.stderr).toMatch(/still serving the last good version: .*alpha/);

      // Fixed: the new version, and listeners hear of it.
      const before = p.messages.filter((m) => m.method === 'notifications/tools/list_changed').length;
      writeFileSync(server, serverSource(['alpha', 'gamma']));
      await until(
        () => p.stderr,
        () => p.messages.filter((m) => m.method === 'notifications/tools/list_changed').length > before,
      );
      expect(toolNames((await p.request(request(7, 'tools/list'))).result)).toEqual(['alpha', 'gamma']);
      expect((await p.request(request(8, 'tools/call', { name: 'beta', arguments: {} }))).error.code).toBe(-32602);
      expect(p.child.exitCode).toBeNull();
    }, 40_000);

    it('starts with one stderr line: what it serves and the next step (`npm run dev` is not silent); stdout stays the protocol', async () => {
      // As `npm run dev` runs it: from the project's folder, the module named relative to it.
      p = new StdioProcess([MCP_SERVE, 'server.ts', '--watch'], {}, { cwd: dir });
      const stderr = await p.waitForStderr(/mcp-serve: watching .*\n/, 15_000);
      expect(stderr.split('\n').filter((line) => line.startsWith('mcp-serve:'))).toEqual([
        'mcp-serve: watching . for changes; serving 1 tool, 0 prompts, 0 resources over stdio (stdout carries the protocol) — connect a host: mcp-serve install <host> server.ts, or serve HTTP: add --http',
      ]);
      expect(p.rawLines).toEqual([]);
      expect((await p.request(request(1, 'tools/call', { name: 'alpha', arguments: {} }))).result.content[0].text).toBe('hello from alpha');
      expect(p.rawLines).toHaveLength(1);
    }, 30_000);

    it("serves with the module's serverOptions (they were dropped under --watch): its rate limit holds", async () => {
      writeFileSync(server, `${serverSource(['alpha'])}\nexport const serverOptions = { rateLimit: { points: 1, durationMs: 60_000 } };\n`);
      p = StdioProcess.serve(server, ['--watch']);
      expect((await p.request(request(1, 'tools/call', { name: 'alpha', arguments: {} }))).result.content[0].text).toBe('hello from alpha');
      expect((await p.request(request(2, 'tools/call', { name: 'alpha', arguments: {} }))).error).toMatchObject({ code: -31429, data: { limit: 1 } });
    }, 20_000);
  });

  describe('over HTTP', () => {
    let child: ChildProcess;
    afterEach(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });

    it('keeps its port and its listen streams, which get notifications/tools/list_changed', async () => {
      child = spawn(process.execPath, [MCP_SERVE, server, '--watch', '--http', '--port', '0'], {
        cwd: ROOT,
        env: { ...process.env, DECORUM_LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      await until(
        () => stderr,
        () => /Streamable HTTP at http:\/\/\S+/.test(stderr) && stderr.includes('watching'),
      );
      const url = /Streamable HTTP at (http:\/\/\S+)/.exec(stderr)![1];
      const headers = (method: string) => ({
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': method,
      });
      const list = async (id: number) => {
        const response = await fetch(url, {
          method: 'POST',
          headers: headers('tools/list'),
          body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: meta() } }),
        });
        return toolNames(((await response.json()) as { result: { tools: Array<{ name: string }> } }).result);
      };

      // A listen stream, read as it arrives.
      const listen = await fetch(url, {
        method: 'POST',
        headers: headers('subscriptions/listen'),
        body: JSON.stringify({ jsonrpc: '2.0', id: 'H', method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true }, _meta: meta() } }),
      });
      expect(listen.headers.get('content-type')).toMatch(/^text\/event-stream/);
      let events = '';
      const reader = listen.body!.pipeThrough(new TextDecoderStream()).getReader();
      void (async () => {
        for (;;) {
          const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
          if (done) return;
          events += value;
        }
      })();
      await until(
        () => events,
        () => events.includes('notifications/subscriptions/acknowledged'),
      );
      expect(await list(1)).toEqual(['alpha']);

      writeFileSync(server, serverSource(['alpha', 'beta']));
      await until(
        () => `${events}\n${stderr}`,
        () => events.includes('notifications/tools/list_changed'),
      );
      expect(events).toContain('"io.modelcontextprotocol/subscriptionId":"H"');
      expect(await list(2)).toEqual(['alpha', 'beta']);

      writeFileSync(server, 'export class = ;\n');
      await until(
        () => stderr,
        () => stderr.includes('reload of'),
      );
      expect(await list(3)).toEqual(['alpha', 'beta']);
      await reader.cancel();
    }, 40_000);
  });
});
