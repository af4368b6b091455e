import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from '@jest/globals';
import { MCP_SERVE, ROOT } from '@decorum-internal/test-support';

const run = promisify(execFile);
const MODULE = 'packages/cli/test/fixtures/zod-tool.ts';

/** `mcp-serve MODULE --list …` (the module's own process: nothing is loaded into the test's). */
const list = async (...extra: string[]) =>
  (await run(process.execPath, [MCP_SERVE, MODULE, '--list', ...extra], { cwd: ROOT, env: { ...process.env, DECORUM_LOG_LEVEL: 'warn' } })).stdout;

describe('mcp-serve --list of a tool whose input is a zod 4 schema', () => {
  it('--json shows the JSON Schema the schema describes, not zod internals', async () => {
    const preview = JSON.parse(await list('--json')) as { 'tools/list': Array<{ tools: Array<Record<string, unknown>> }> };
    const [tool] = preview['tools/list'][0]!.tools;
    expect(tool).toMatchObject({ name: 'count', description: 'Counts' });
    expect(tool!.inputSchema).toMatchObject({
      type: 'object',
      properties: { n: { type: 'integer', minimum: 0, description: 'How many' } },
      required: ['n'],
    });
    expect(JSON.stringify(tool!.inputSchema)).not.toMatch(/"def"|"_zod"|~standard/);
  });

  it('the readable form prints it too', async () => {
    const text = await list();
    expect(text).toMatch(/^ {2}count\n {4}Counts\n {4}inputSchema:\n {6}\{/m);
    expect(text).toContain('"minimum": 0');
    expect(text).not.toContain('"def"');
  });
});
