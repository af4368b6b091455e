import { InternalError, MissingRequiredClientCapabilityError } from '@decorum/core';
import { connect, createTestClient, RequestCancelledError, type McpClient, type McpClientOptions, type Task } from '@decorum/client';
import { McpHost, type HostTaskStatus } from '@decorum/client/host';
import { TaskFixtures } from '../../../examples/everything/src/everything.js';
import { ROOT, serveHttp, type HttpServer } from './support/servers.js';

const text = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;
const statuses = (seen: readonly Task[]) => seen.map((task) => task.status).filter((status, i, all) => status !== all[i - 1]);

/** The client's answers to the fixtures' asks: confirm_delete's `confirm`, multi_input's and test_tool_with_task's `name`. */
const handlers: McpClientOptions = {
  // The modern era only: a child process slow to start on a loaded machine must not be taken for a legacy server.
  era: 'modern',
  probeTimeoutMs: 20_000,
  elicitation: (request) => {
    const properties = Object.keys(((request as { requestedSchema?: { properties?: object } }).requestedSchema?.properties ?? {}) as object);
    return { action: 'accept', content: Object.fromEntries(properties.map((key) => [key, key === 'confirm' ? true : 'Alice'])) };
  },
};

/**
 * `callTool` on 2026-07-28 tasks (`io.modelcontextprotocol/tasks`) against Decorum's own Tasks
 * server (examples/everything's task fixtures): over Streamable HTTP (real Fastify on 127.0.0.1,
 * so tasks/get|update|cancel carry Mcp-Name), over stdio (mcp-serve, a child process) and
 * in-process (createTestClient).
 */
describe.each(['http', 'stdio', 'in-process'] as const)('McpClient tasks, 2026-07-28, %s', (transport) => {
  let http: HttpServer | undefined;
  const open = async (options: McpClientOptions = {}): Promise<McpClient> => {
    if (transport === 'in-process') return createTestClient(TaskFixtures, { ...handlers, ...options });
    if (transport === 'http') return connect({ url: http!.url }, { ...handlers, ...options });
    const stdio = {
      command: process.execPath,
      args: [`${ROOT}packages/cli/dist/bin.js`, `${ROOT}examples/everything/dist/everything.js`],
      stderr: 'ignore' as const,
    };
    return connect({ ...stdio, env: { DECORUM_LOG_LEVEL: 'warn' } }, { ...handlers, ...options });
  };
  let client: McpClient;
  beforeAll(async () => {
    if (transport === 'http') http = await serveHttp({ servers: [TaskFixtures] });
    client = await open();
  });
  afterAll(async () => {
    await client.close();
    await http?.close();
  });

  test('a task is polled with tasks/get to its result; onStatus hears working, then completed', async () => {
    const seen: Task[] = [];
    const result = await client.callTool('slow_compute', { seconds: 0.3, label: 'pi' }, { onStatus: (task) => seen.push(task), pollIntervalMs: 50 });
    expect(text(result)).toBe('Computed pi in 0.3 s');
    expect(result.resultType).toBe('complete');
    expect(statuses(seen)).toEqual(['working', 'completed']);
    expect(seen[0]).toMatchObject({ taskId: expect.any(String), ttlMs: expect.any(Number), pollIntervalMs: expect.any(Number) });
  });

  test("input_required is answered through the client's elicitation handler with tasks/update", async () => {
    const seen: Task[] = [];
    const result = await client.callTool('confirm_delete', { filename: 'a.txt' }, { onStatus: (task) => seen.push(task), pollIntervalMs: 50 });
    expect(text(result)).toBe('Deleted a.txt');
    expect(statuses(seen)).toContain('input_required');
    expect(seen.at(-1)?.status).toBe('completed');
    // Two asks pending at once: both answered, each key once.
    expect(text(await client.callTool('multi_input', {}, { pollIntervalMs: 50 }))).toBe('Got Alice and Alice');
  });

  test('an MRTR round first, then a task (test_tool_with_task)', async () => {
    expect(text(await client.callTool('test_tool_with_task', {}, { pollIntervalMs: 50 }))).toBe('Hello, Alice!');
  });

  test('isError ends the task completed (the result is returned); a JSON-RPC error ends it failed (thrown as the client throws one)', async () => {
    const failing = await client.callTool('failing_job', {}, { pollIntervalMs: 100 });
    expect(failing).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('input data set is empty') }] });
    const seen: Task[] = [];
    const error = await client.callTool('protocol_error_job', {}, { pollIntervalMs: 50, onStatus: (task) => seen.push(task) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalError);
    expect((error as Error).message).toContain('internal error on purpose');
    expect(seen.at(-1)?.status).toBe('failed');
  });

  test('an abort sends tasks/cancel: the call rejects as cancelled, and the task reads cancelled', async () => {
    const controller = new AbortController();
    let taskId = '';
    const call = client.callTool(
      'slow_compute',
      { seconds: 60 },
      { signal: controller.signal, onStatus: (task) => ((taskId = task.taskId), controller.abort()) },
    );
    await expect(call).rejects.toBeInstanceOf(RequestCancelledError);
    expect(await client.request('tasks/get', { taskId })).toMatchObject({ taskId, status: 'cancelled' });
  });

  test('without the extension (tasks: false, or task: false on one call) an optional tool runs at once and a required one is refused with -32021', async () => {
    const seen: Task[] = [];
    expect(text(await client.callTool('slow_compute', { seconds: 0 }, { task: false, onStatus: (task) => seen.push(task) }))).toBe(
      'Computed the result in 0 s',
    );
    expect(seen).toEqual([]);
    const plain = await open({ tasks: false });
    try {
      expect(text(await plain.callTool('slow_compute', { seconds: 0 }))).toBe('Computed the result in 0 s');
      await expect(plain.callTool('failing_job')).rejects.toBeInstanceOf(MissingRequiredClientCapabilityError);
    } finally {
      await plain.close();
    }
    // stdio spawns a second mcp-serve here: slow on a loaded machine.
  }, 40_000);
});

describe('McpHost tasks (2026-07-28, HTTP)', () => {
  test("onTaskStatus hears each change of a long call's task, with the server and the namespaced tool", async () => {
    const http = await serveHttp({ servers: [TaskFixtures] });
    const host = new McpHost({ approve: () => true, ...handlers, onTaskStatus: (status) => heard.push(status) });
    const heard: HostTaskStatus[] = [];
    try {
      await host.connect('jobs', { url: http.url });
      const own: Task[] = [];
      const result = await host.callTool('jobs_confirm_delete', { filename: 'b.txt' }, { pollIntervalMs: 50, onStatus: (task) => own.push(task) });
      expect(text(result)).toBe('Deleted b.txt');
      expect(heard.map((h) => [h.server, h.tool])).toEqual(heard.map(() => ['jobs', 'jobs_confirm_delete']));
      const changes = statuses(heard.map((h) => h.task));
      expect([changes[0], changes.at(-1)]).toEqual(['working', 'completed']);
      expect(changes).toContain('input_required');
      expect(own).toEqual(heard.map((h) => h.task));
    } finally {
      await host.close();
      await http.close();
    }
  });
});
