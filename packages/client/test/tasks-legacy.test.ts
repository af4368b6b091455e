import { spawn, type ChildProcess } from 'node:child_process';
import { connect, RequestCancelledError, type McpClient, type Task } from '@decorum/client';
import { FIXTURES, fixture } from './support/servers.js';

/**
 * `callTool` on 2025-11-25 core tasks, against the official SDK v1 server's experimental tasks:
 * a stdio child process, and the same server over Streamable HTTP with sessions on 127.0.0.1
 * (where the elicitation inside a task arrives on the tasks/result SSE stream).
 */
describe.each(['stdio', 'http'] as const)('McpClient tasks, 2025-11-25 (SDK v1 task server, %s)', (mode) => {
  let client: McpClient;
  let child: ChildProcess | undefined;
  const asked: string[] = [];
  beforeAll(async () => {
    const options = { elicitation: (request: { message: string }) => (asked.push(request.message), { action: 'accept' as const, content: { ok: true } }) };
    if (mode === 'stdio') {
      client = await connect(fixture('sdk-v1-task-server.mjs'), options);
      return;
    }
    child = spawn(process.execPath, [`${FIXTURES}sdk-v1-task-server.mjs`, 'http'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const url = await new Promise<string>((resolve) =>
      child!.stdout!.on('data', (chunk: Buffer) => {
        const port = /PORT (\d+)/.exec(chunk.toString())?.[1];
        if (port) resolve(`http://127.0.0.1:${port}/mcp`);
      }),
    );
    client = await connect({ url }, options);
  });
  afterAll(async () => {
    await client.close();
    child?.kill();
  });

  test('a required task tool: the call sends `task`, follows it to its result, and onStatus hears each change', async () => {
    expect(client.era).toBe('legacy');
    const seen: Task[] = [];
    const result = await client.callTool('count', { to: 3 }, { onStatus: (task) => seen.push(task), pollIntervalMs: 50 });
    expect(result.content).toEqual([{ type: 'text', text: 'counted to 3' }]);
    // The SDK's store keeps the last status message on the completed task.
    expect(seen.map((t) => [t.status, t.statusMessage])).toEqual([
      ['working', undefined],
      ['working', 'halfway'],
      ['completed', 'halfway'],
    ]);
    expect(seen[0]!.taskId).toEqual(expect.any(String));
    expect(seen[0]!.pollIntervalMs).toBe(100);
    expect(seen[0]!.ttlMs).toBe(60_000);
  });

  test('an optional task tool runs inline unless the caller asks for a task ({ ttlMs } is sent as ttl)', async () => {
    const inline: Task[] = [];
    expect((await client.callTool('maybe', { word: 'inline' }, { onStatus: (task) => inline.push(task) })).content).toEqual([
      { type: 'text', text: 'maybe inline' },
    ]);
    expect(inline).toEqual([]);
    const seen: Task[] = [];
    const result = await client.callTool('maybe', { word: 'task' }, { task: { ttlMs: 30_000 }, onStatus: (task) => seen.push(task) });
    expect(result.content).toEqual([{ type: 'text', text: 'maybe task' }]);
    expect(seen[0]).toMatchObject({ status: 'working', ttlMs: 30_000 });
    expect(seen.at(-1)?.status ?? 'completed').toBe('completed');
  });

  test("an elicitation inside the task reaches the client's handler through tasks/result; its answer completes the task", async () => {
    asked.length = 0;
    const result = await client.callTool('confirm', { file: 'a.txt' });
    expect(asked).toEqual(['Delete a.txt?']);
    expect(result.content).toEqual([{ type: 'text', text: 'deleted a.txt' }]);
  });

  test('an abort sends tasks/cancel: the call rejects as cancelled and the task reads cancelled', async () => {
    const controller = new AbortController();
    let taskId = '';
    const call = client.callTool('forever', {}, { signal: controller.signal, onStatus: (task) => ((taskId = task.taskId), controller.abort()) });
    await expect(call).rejects.toBeInstanceOf(RequestCancelledError);
    expect(await client.request('tasks/get', { taskId })).toMatchObject({ taskId, status: 'cancelled' });
  });

  test('a task that failed with an isError result gives that result, as the call itself would have; onStatus hears failed', async () => {
    const seen: Task[] = [];
    const result = await client.callTool('broken', {}, { onStatus: (task) => seen.push(task) });
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'the job broke' }] });
    expect(seen.map((t) => t.status)).toEqual(['working', 'failed']);
  });

  test('task: false calls a required task tool without a task (the SDK answers its -32601 as an isError result)', async () => {
    const result = await client.callTool('count', { to: 1 }, { task: false });
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('requires task augmentation') }] });
  });
});
