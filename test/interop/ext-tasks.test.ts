import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { serveHttpProcess, type HttpProcess } from '../../packages/fastify/test/support/cli-process.js';
import { ROOT } from '@decorum-internal/test-support';

const run = promisify(execFile);
const CLIENT = `${ROOT}test/interop/clients/ext-tasks-client.mjs`;

/** Runs the ext-tasks client script (`era mode target tool args`) and returns what it printed. */
async function extTasks(...args: string[]): Promise<any> {
  const { stdout } = await run(process.execPath, [CLIENT, ...args], { cwd: ROOT, timeout: 30_000 }).catch((error: { stdout?: string }) => ({
    stdout: error.stdout ?? '',
  }));
  const out = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}');
  if (out.failed) throw new Error(`the ext-tasks client failed: ${out.failed}`);
  return out;
}

/**
 * Acceptance (#50): the official Tasks client, `@modelcontextprotocol/ext-tasks` (pinned; its
 * `createTaskSessionFromClient` over the official v2 client), runs task tools of examples/everything
 * served by `mcp-serve --http` in both eras, answering `input_required` through its `onInputRequest`.
 */
describe('interop with @modelcontextprotocol/ext-tasks', () => {
  let served: HttpProcess;
  beforeAll(async () => {
    served = await serveHttpProcess(['examples/everything/dist/everything.js', '--http', '--port', '0']);
  });
  afterAll(async () => {
    served.child.kill('SIGTERM');
    await served.exited;
  });

  test('2026-07-28: the server counts as Tasks-capable; a task tool settles completed through tasks/get', async () => {
    const out = await extTasks('modern', 'http', served.url, 'slow_compute', '{"seconds":0.5,"label":"pi"}');
    expect(out.kind).toBe('task');
    expect(out.result).toMatchObject({ content: [{ type: 'text', text: 'Computed pi in 0.5 s' }] });
    expect(out.events.at(-1)).toBe('outcome:completed');
    expect(out.asked).toEqual([]);
  });

  test('2026-07-28: input_required inside the task is answered through onInputRequest (tasks/update), then the task completes', async () => {
    const out = await extTasks('modern', 'http', served.url, 'confirm_delete', '{"filename":"a.txt"}');
    expect(out.kind).toBe('task');
    expect(out.asked).toEqual([{ kind: 'elicitation', message: 'Delete a.txt?' }]);
    expect(out.events).toContain('input_required');
    expect(out.result).toMatchObject({ content: [{ type: 'text', text: 'Deleted a.txt' }] });
  });

  test('2025-11-25: a required task tool runs as a legacy core task; its elicitation (a server request) is answered through onInputRequest', async () => {
    const out = await extTasks('legacy', 'http', served.url, 'test_tool_with_task', '{}');
    expect(out.kind).toBe('task');
    expect(out.asked).toEqual([{ kind: 'elicitation', message: 'What is your name?' }]);
    expect(out.events).toEqual(expect.arrayContaining(['input_required', 'completed', 'outcome:completed']));
    expect(out.result).toMatchObject({ content: [{ type: 'text', text: 'Hello, Alice!' }] });
  });

  test("2025-11-25: an isError result ends the legacy task failed (the era's rule), and the client reads why", async () => {
    await expect(extTasks('legacy', 'http', served.url, 'failing_job', '{}')).rejects.toThrow(/TaskFailedError: The tool reported an error/);
  });
});
