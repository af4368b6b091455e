import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { request, MCP_SERVE, ROOT, StdioProcess } from '@decorum-internal/test-support';

const run = promisify(execFile);
const NOTES = 'examples/notes/src/notes.ts';
const BIN = realpathSync(join(ROOT, 'packages/cli/bin/mcp-serve.js'));

/** Runs `mcp-serve install …args` in `cwd` with `env`; resolves with its exit code and output (never rejects). */
async function install(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, [MCP_SERVE, 'install', ...args], {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, ...options.env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

type Entry = { type?: string; command: string; args: string[] };

/** Each test starts one to four Node processes; on a loaded two-core machine one start took 3 s. */
const SLOW = 60_000;

describe('mcp-serve install <host> <module> --print', () => {
  it(
    'prints a Claude Desktop config that, run from /, serves the module',
    async () => {
      const printed = await install(['claude-desktop', NOTES, '--print']);
      expect(printed).toMatchObject({ code: 0, stderr: '' });
      const config = JSON.parse(printed.stdout) as { mcpServers: Record<string, Entry> };
      expect(Object.keys(config)).toEqual(['mcpServers']);
      // The name is the one the module's @McpServer announces; every path is absolute.
      const entry = config.mcpServers.notes;
      expect(entry).toEqual({ command: process.execPath, args: [BIN, join(ROOT, NOTES)] });
      expect([entry.command, ...entry.args].every((part) => isAbsolute(part))).toBe(true);

      // Exactly the printed command, started from / as a host would (no project, no node_modules above it).
      const host = new StdioProcess(entry.args, {}, { command: entry.command, cwd: '/' });
      try {
        const list = await host.request(request(1, 'tools/list'));
        expect(list.result.tools.map((t: { name: string }) => t.name)).toEqual(['add_note']);
        const call = await host.request(request(2, 'tools/call', { name: 'add_note', arguments: { text: 'from /' } }));
        expect(call.result.content).toEqual([{ type: 'text', text: 'Stored note #1' }]);
        expect(call.result._meta['io.modelcontextprotocol/serverInfo'].name).toBe('notes');
      } finally {
        host.kill();
      }
    },
    SLOW,
  );

  it.each([
    ['claude-desktop', 'mcpServers', undefined],
    ['claude-code', 'mcpServers', 'stdio'],
    ['cursor', 'mcpServers', undefined],
    ['vscode', 'servers', 'stdio'],
  ])(
    '%s: the entry sits under "%s" (type: %s), with what follows -- appended to the arguments',
    async (host, key, type) => {
      const printed = await install([host, NOTES, '--print', '--name', 'my-notes', '--', '--eras', 'modern']);
      expect(printed).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(printed.stdout)).toEqual({
        [key]: { 'my-notes': { ...(type ? { type } : {}), command: process.execPath, args: [BIN, join(ROOT, NOTES), '--eras', 'modern'] } },
      });
    },
    SLOW,
  );
});

describe('mcp-serve install <host> <module> (writing the host config)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'decorum-install-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it(
    'merges into an existing config, keeping the other servers and settings, and says what it wrote where',
    async () => {
      const file = join(dir, 'claude_desktop_config.json');
      const other = { command: '/opt/other/server', args: ['--flag'], env: { TOKEN: 'x' } };
      writeFileSync(file, JSON.stringify({ globalShortcut: 'Ctrl+Space', mcpServers: { other } }, null, 4));

      const first = await install(['claude-desktop', NOTES, '--config', file]);
      expect(first).toMatchObject({ code: 0, stderr: '' });
      expect(first.stdout).toContain(`mcp-serve: added the server "notes" in ${realpathSync(file)} (Claude Desktop config, key "mcpServers")`);
      const entry = { command: process.execPath, args: [BIN, join(ROOT, NOTES)] };
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ globalShortcut: 'Ctrl+Space', mcpServers: { other, notes: entry } });

      // Again, with other arguments: the entry is replaced, the rest stays.
      const again = await install(['claude-desktop', NOTES, '--config', file, '--', '--eras', 'modern']);
      expect(again.stdout).toContain('mcp-serve: replaced the server "notes"');
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
        globalShortcut: 'Ctrl+Space',
        mcpServers: { other, notes: { ...entry, args: [...entry.args, '--eras', 'modern'] } },
      });
    },
    SLOW,
  );

  it.each([
    ['not JSON', '{ "mcpServers": { "other": '],
    ['JSON but not an object', '["mcpServers"]'],
    ['a servers key that is not an object', '{ "mcpServers": [] }'],
  ])(
    'refuses a config that is %s and leaves it untouched',
    async (_what, content) => {
      const file = join(dir, 'claude_desktop_config.json');
      writeFileSync(file, content);
      const refused = await install(['claude-desktop', NOTES, '--config', file, '--name', 'notes']);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toMatch(
        new RegExp(`^mcp-serve: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*fix it, then run mcp-serve install again \\(nothing was written\\)\\n$`),
      );
      expect(readFileSync(file, 'utf8')).toBe(content);
    },
    SLOW,
  );

  it(
    "writes each host's own file: Claude Desktop and Cursor under the home folder, Claude Code and VS Code in the current folder",
    async () => {
      const home = join(dir, 'home');
      const project = join(dir, 'project');
      mkdirSync(home);
      mkdirSync(project);
      const env = { HOME: home, XDG_CONFIG_HOME: '' };
      const files = {
        'claude-desktop': join(home, '.config/Claude/claude_desktop_config.json'),
        cursor: join(home, '.cursor/mcp.json'),
        'claude-code': join(project, '.mcp.json'),
        vscode: join(project, '.vscode/mcp.json'),
      };
      for (const [host, file] of Object.entries(files)) {
        const written = await install([host, join(ROOT, NOTES), '--name', 'notes'], { cwd: project, env });
        expect(written).toMatchObject({ code: 0, stderr: '' });
        expect(written.stdout).toContain(` in ${file} (`);
        const config = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, Entry>>;
        expect(config[host === 'vscode' ? 'servers' : 'mcpServers'].notes.args).toEqual([BIN, join(ROOT, NOTES)]);
      }
    },
    SLOW,
  );

  it(
    'a missing module file, an unknown host and a module that does not load are clear errors, and nothing is written',
    async () => {
      const file = join(dir, 'mcp.json');
      const missing = await install(['cursor', 'does/not/exist.ts', '--config', file]);
      expect(missing).toMatchObject({ code: 1, stdout: '' });
      expect(missing.stderr).toBe(`mcp-serve: cannot find module file does/not/exist.ts (resolved to ${join(ROOT, 'does/not/exist.ts')})\n`);
      const unknown = await install(['zed', NOTES, '--config', file]);
      expect(unknown).toMatchObject({ code: 1, stdout: '' });
      expect(unknown.stderr).toBe('mcp-serve: unknown host "zed": mcp-serve install knows claude-desktop, claude-code, cursor, vscode\n');
      // The name is read by loading the module as mcp-serve would: one that cannot load fails here, not in the host.
      const broken = await install(['cursor', 'packages/cli/test/fixtures/broken.ts', '--config', file]);
      expect(broken).toMatchObject({ code: 1, stdout: '' });
      expect(broken.stderr).toMatch(/^mcp-serve: cannot load packages\/cli\/test\/fixtures\/broken\.ts: .*does not compile/);
      expect(existsSync(file)).toBe(false);
    },
    SLOW,
  );

  it(
    'serving options belong after --: given before, they are an error, not silently dropped',
    async () => {
      const misplaced = await install(['cursor', NOTES, '--print', '--http']);
      expect(misplaced.code).toBe(1);
      expect(misplaced.stderr).toMatch(/unknown option '--http'/);
    },
    SLOW,
  );
});
