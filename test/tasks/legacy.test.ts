import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { MCP_SERVE, ROOT, serveHttpProcess } from '../../packages/fastify/test/support/cli-process.js';

/**
 * Tasks on 2025-11-25 sessions (legacy core tasks), driven by the official v1 client's
 * experimental tasks API against examples/everything's task fixtures, over Streamable HTTP
 * (`mcp-serve --http` on 127.0.0.1, one session per client) and stdio (a child process): the
 * capability and `execution.taskSupport` on 2025-11-25 and not on 2025-06-18, create, get and the
 * blocking `tasks/result`, an elicitation inside a task answered by the client's own handler (with
 * the related-task `_meta`), `tasks/list` scoped to the session, cancel and cancel again (-32602),
 * `isError` ⇒ failed, and a required tool called without a task (-32601).
 */
const run = promisify(execFile);
const CLIENT = `${ROOT}test/tasks/clients/legacy-tasks-client.mjs`;
const EVERYTHING = `${ROOT}examples/everything/dist/everything.js`;
/** Bounds that only end a hung run on a busy machine (the script's own work takes a few seconds). */
const CLIENT_MS = 90_000;
const TEST_MS = 100_000;

async function legacyClient(revision: string, transport: 'stdio' | 'http', target: string[]): Promise<any> {
  const { stdout } = await run(process.execPath, [CLIENT, revision, transport, ...target], { cwd: ROOT, timeout: CLIENT_MS }).catch(
    (error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout || JSON.stringify({ failed: error.stderr }) }),
  );
  const out = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}');
  if (out.failed) throw new Error(`the v1 client failed: ${out.failed}`);
  return out;
}

const RELATED = 'io.modelcontextprotocol/related-task';

function expectLegacyTasks(out: any): void {
  expect(out.capabilities).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
  expect(out.taskSupport).toMatchObject({ greet: null, slow_compute: 'optional', failing_job: 'required', confirm_delete: 'optional' });

  // callToolStream: taskCreated, then statuses, then the result.
  expect(out.stream[0]).toEqual({ type: 'taskCreated', status: 'working' });
  expect(out.stream.at(-1)).toEqual({ type: 'result', text: 'Computed the result in 1 s' });

  // Created { task } (the ttl asked for is kept), tasks/get, and the blocking tasks/result.
  expect(out.created).toMatchObject({ taskId: expect.any(String), status: 'working', ttl: 60_000, pollInterval: expect.any(Number) });
  expect(Date.parse(out.created.createdAt)).not.toBeNaN();
  expect(out.got).toMatchObject({ taskId: out.created.taskId, status: 'working', ttl: 60_000 });
  expect(out.result).toMatchObject({ content: [{ type: 'text', text: 'Computed the result in 1 s' }], _meta: { [RELATED]: { taskId: out.created.taskId } } });
  expect(out.after).toMatchObject({ taskId: out.created.taskId, status: 'completed' });

  // The elicitation went out as a real request tied to its task, answered by the client's handler.
  expect(out.elicited).toEqual([{ message: 'Delete report.txt?', meta: { [RELATED]: { taskId: expect.any(String) } } }]);
  expect(out.confirm[0]).toEqual({ type: 'taskCreated', status: 'working' });
  expect(out.confirm.at(-1)).toEqual({ type: 'result', text: 'Deleted report.txt' });

  // Cancel: cancelled before the answer; a second cancel is -32602.
  expect(out.cancelled).toMatchObject({ taskId: out.ids.long, status: 'cancelled' });
  expect(out.cancelledGet).toMatchObject({ status: 'cancelled' });
  expect(out.cancelAgain).toMatchObject({ code: -32602, message: expect.stringContaining('already cancelled') });

  // isError fails the task; tasks/result still answers the tool's result.
  expect(out.failedTask).toMatchObject({ taskId: out.ids.failing, status: 'failed' });
  expect(out.failedResult).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('input data set is empty') }] });

  expect(out.requiredPlain).toMatchObject({ code: -32601, message: expect.stringContaining('failing_job') });
  expect(out.unknown).toMatchObject({ code: -32602 });

  // The session lists its own tasks.
  expect(out.listed).toEqual(expect.arrayContaining([out.ids.task, out.ids.long, out.ids.failing]));
}

function expectNoTasks(out: any): void {
  expect(out.capabilities).toBeNull();
  expect(Object.values(out.taskSupport).every((support) => support === null)).toBe(true);
  expect(out.inline).toMatchObject({ content: [{ type: 'text', text: 'Computed the result in 0 s' }] });
  expect(out.required).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('input data set is empty') }] });
  expect(out.list).toMatchObject({ code: -32601 });
}

describe('over Streamable HTTP (mcp-serve --http)', () => {
  let http: Awaited<ReturnType<typeof serveHttpProcess>>;
  beforeAll(async () => {
    http = await serveHttpProcess([EVERYTHING, '--http', '--port', '0']);
  });
  afterAll(async () => {
    http.child.kill('SIGTERM');
    await http.exited;
  });

  test(
    '2025-11-25: the v1 client runs tasks; another session lists none of them',
    async () => {
      const out = await legacyClient('2025-11-25', 'http', [http.url]);
      expectLegacyTasks(out);
      expect(out.otherListed).toEqual([]);
      // Status notifications reached the session (optional in the spec; sent here).
      expect(out.statuses).toEqual(expect.arrayContaining(['completed']));
    },
    TEST_MS,
  );

  test(
    '2025-06-18: no tasks; task tools run inline',
    async () => {
      expectNoTasks(await legacyClient('2025-06-18', 'http', [http.url]));
    },
    TEST_MS,
  );
});

describe('over stdio (mcp-serve, a child process)', () => {
  test(
    '2025-11-25: the v1 client runs tasks',
    async () => {
      expectLegacyTasks(await legacyClient('2025-11-25', 'stdio', [process.execPath, MCP_SERVE, EVERYTHING]));
    },
    TEST_MS,
  );

  test(
    '2025-06-18: no tasks; task tools run inline',
    async () => {
      expectNoTasks(await legacyClient('2025-06-18', 'stdio', [process.execPath, MCP_SERVE, EVERYTHING]));
    },
    TEST_MS,
  );
});
