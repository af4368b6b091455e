import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from '@jest/globals';
import { request, MCP_SERVE, ROOT, StdioProcess } from '@decorum-internal/test-support';

const run = promisify(execFile);
const MODULE = 'examples/everything/src/everything.ts';

/** Runs `mcp-serve …args`; resolves with its exit code and output (never rejects). */
async function mcpServe(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [MCP_SERVE, ...args], { cwd: ROOT, env: { ...process.env, DECORUM_LOG_LEVEL: 'warn' } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('mcp-serve MODULE --list', () => {
  const stdio = StdioProcess.serve(MODULE);
  afterAll(() => stdio.kill());

  it('--json prints exactly the pages tools/list, resources/list, resources/templates/list and prompts/list serve over stdio', async () => {
    const { code, stdout } = await mcpServe([MODULE, '--list', '--json']);
    expect(code).toBe(0);
    const preview = JSON.parse(stdout) as Record<string, Array<Record<string, unknown>>>;
    expect(Object.keys(preview)).toEqual(['tools/list', 'resources/list', 'resources/templates/list', 'prompts/list']);
    let id = 0;
    for (const [method, pages] of Object.entries(preview)) {
      const served: unknown[] = [];
      let cursor: unknown;
      do {
        const response = await stdio.request(request(++id, method, cursor === undefined ? {} : { cursor }));
        served.push(response.result);
        cursor = response.result.nextCursor;
      } while (cursor !== undefined);
      expect(pages).toEqual(served);
    }
    expect(preview['tools/list'][0].tools).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'test_simple_text', inputSchema: expect.any(Object) })]),
    );
  });

  it('prints a readable form by default: each item with its schema, and exits 0', async () => {
    const { code, stdout } = await mcpServe([MODULE, '--list']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^tools \(\d+, from tools\/list\):\n/m);
    expect(stdout).toMatch(/^ {2}test_simple_text\n {4}Tests simple text content response\n {4}inputSchema:\n {6}\{/m);
    expect(stdout).toMatch(/^resources \(\d+, from resources\/list\):/m);
    expect(stdout).toMatch(/^resourceTemplates \(\d+, from resources\/templates\/list\):\n {2}\S+\n {4}uriTemplate: /m);
    expect(stdout).toMatch(/^prompts \(\d+, from prompts\/list\):/m);
    expect(stdout).toMatch(/ {4}arguments:\n {6}\w+ \(required\)/);
  });

  it('a module that does not load exits non-zero with the reason', async () => {
    const broken = await mcpServe(['packages/cli/test/fixtures/broken.ts', '--list']);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toBe('');
    expect(broken.stderr).toMatch(/^mcp-serve: cannot load packages\/cli\/test\/fixtures\/broken\.ts: .*does not compile/);
    const missing = await mcpServe(['packages/cli/test/fixtures/absent.ts', '--list', '--json']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^mcp-serve: cannot find module file packages\/cli\/test\/fixtures\/absent\.ts/);
    const empty = await mcpServe(['packages/cli/test/fixtures/no-servers.mjs', '--list']);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/exports no Decorum server/);
  });
});
