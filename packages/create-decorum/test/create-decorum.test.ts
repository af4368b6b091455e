/**
 * The scaffolder. The first suite is SLOW (~20–40 s): it packs our packages, generates a project
 * in the OS temp folder from those tarballs, installs it (--prefer-offline) and runs its own
 * `npm test`, type-check and scripts.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { QUICK_INSTALL, packWorkspaces, ROOT } from '@decorum-internal/test-support';
import { THIRD_PARTY } from '../src/versions.js';

const run = promisify(execFile);
const BIN = join(ROOT, 'packages/create-decorum/bin/create-decorum.js');

/** Runs a command; resolves with its exit code and output (never rejects). */
async function exec(command: string, args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(command, args, { cwd, env: { ...process.env, DECORUM_LOG_LEVEL: 'warn' } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('npm create decorum: a generated project passes its own npm test', () => {
  let dir: string;
  let project: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'decorum-create-'));
    const tarballs = join(dir, 'tarballs');
    mkdirSync(tarballs);
    packWorkspaces(tarballs);
    const created = await exec(process.execPath, [BIN, 'my-server', '--decorum-from', tarballs], dir);
    expect(created).toMatchObject({ code: 0, stdout: expect.stringContaining('Created my-server.') });
    project = join(dir, 'my-server');
    await run('npm', ['install', ...QUICK_INSTALL], { cwd: project });
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has a server class, a test, a .gitignore and scripts for stdio, HTTP, reload and preview', () => {
    const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
    expect(manifest.name).toBe('my-server');
    expect(manifest.scripts).toMatchObject({
      start: 'mcp-serve src/server.ts',
      'start:http': expect.stringContaining('--http'),
      dev: expect.stringContaining('--watch'),
      test: expect.any(String),
    });
    expect(manifest.dependencies['@decorum/core']).toMatch(/^file:\.\.\/tarballs\/decorum-core-\d/);
    expect(readFileSync(join(project, 'src/server.ts'), 'utf8')).toContain("@McpServer({ name: 'my-server'");
    expect(readFileSync(join(project, '.gitignore'), 'utf8')).toContain('node_modules/');
    // The generated test uses the testing kit, installed like the other Decorum packages.
    expect(readFileSync(join(project, 'test/server.test.mjs'), 'utf8')).toContain("import { createTestClient } from '@decorum/client';");
    expect(manifest.dependencies['@decorum/client']).toMatch(/^file:\.\.\/tarballs\/decorum-client-\d/);
  });

  it('npm test passes', async () => {
    const test = await exec('npm', ['test'], project);
    expect(test.stdout).toMatch(/# pass 4\n# fail 0/);
    expect(test.code).toBe(0);
  }, 60_000);

  it('the server type-checks and builds with tsc', async () => {
    const check = await exec('npm', ['run', 'build'], project);
    expect(check.stdout).not.toMatch(/error TS/);
    expect(check.code).toBe(0);
    expect((await exec(join(project, 'node_modules/.bin/mcp-serve'), ['dist/server.js', '--list', '--json'], project)).stdout).toContain('"name": "greet"');
  }, 60_000);

  it('npm run start:http serves Streamable HTTP', async () => {
    const child = spawn('npm', ['run', 'start:http', '--', '--port', '0'], { cwd: project, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
    try {
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const deadline = Date.now() + 15_000;
      while (!/Streamable HTTP at (http:\/\/\S+)/.test(stderr)) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no URL; stderr: ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const url = /Streamable HTTP at (http:\/\/\S+)/.exec(stderr)![1];
      const _meta = {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': { name: 't', version: '0' },
      };
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'add',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add', arguments: { a: 2, b: 3 }, _meta } }),
      });
      expect(((await response.json()) as { result: { content: Array<{ text: string }> } }).result.content[0].text).toBe('5');
    } finally {
      process.kill(-child.pid!, 'SIGKILL');
    }
  }, 30_000);
});

describe('create-decorum refuses what it cannot do, with the reason', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'decorum-create-'));
    mkdirSync(join(dir, 'taken'));
    writeFileSync(join(dir, 'taken', 'file.txt'), 'mine');
    mkdirSync(join(dir, 'empty-tarballs'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a folder that is not empty', async () => {
    const result = await exec(process.execPath, [BIN, 'taken'], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^create-decorum: taken already exists and is not an empty folder/);
    expect(readFileSync(join(dir, 'taken', 'file.txt'), 'utf8')).toBe('mine');
  });

  it('a name npm would refuse, no folder, or a tarball folder without our tarballs', async () => {
    expect((await exec(process.execPath, [BIN, 'My Server'], dir)).stderr).toMatch(/"My Server" is not a valid npm package name/);
    expect((await exec(process.execPath, [BIN], dir)).stderr).toMatch(/name the folder of the new project\nusage: /);
    const noTarballs = await exec(process.execPath, [BIN, 'fresh', '--decorum-from', 'empty-tarballs'], dir);
    expect(noTarballs.code).toBe(1);
    expect(noTarballs.stderr).toMatch(/expected one decorum-core-<version>\.tgz \(from npm pack\), found none/);
  });

  it('generated projects depend on the ranges @decorum/core and the repository are built with', () => {
    const core = JSON.parse(readFileSync(join(ROOT, 'packages/core/package.json'), 'utf8'));
    const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    for (const [name, range] of Object.entries(THIRD_PARTY.dependencies)) expect(range).toBe(core.dependencies[name]);
    expect(THIRD_PARTY.devDependencies.typescript).toBe(root.devDependencies.typescript);
    expect(Number(/\d+/.exec(THIRD_PARTY.devDependencies['@types/node'])![0])).toBe(Number(/\d+/.exec(root.devDependencies['@types/node'])![0]));
  });
});
