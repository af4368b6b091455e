// Tasks on several instances (#50, deliverable 4): two `mcp-serve --http --bus redis://…` children on one
// redis-server share the task store the bus offers. A task created on A is polled, answered and cancelled
// through B; A killed mid-task reads `failed` from B once its lease lapsed; Redis killed fails task calls
// closed (no task id) while plain calls are served.
import { serveHttpProcess, type HttpProcess } from '../../packages/fastify/test/support/cli-process.js';
import { fixture, startRedis, type TestRedis } from '@decorum-internal/test-support';
import { getTask, rpc, settles } from './support/task-http.js';

/** The fixture's lease (see tasks-cluster-server.ts): short, so that a dead instance's task fails quickly. */
const LEASE_MS = 1500;

const callTool = (instance: HttpProcess, tool: string, args: Record<string, unknown>, tasks = true) =>
  rpc(instance, 'tools/call', { name: tool, arguments: args }, tool, tasks);

describe('Tasks on two mcp-serve --http instances on one Redis', () => {
  let redis: TestRedis;
  let a: HttpProcess;
  let b: HttpProcess;

  beforeAll(async () => {
    redis = await startRedis();
    [a, b] = await Promise.all([0, 1].map(() => serveHttpProcess([fixture('tasks-cluster-server.ts'), '--http', '--port', '0', '--bus', redis.url])));
  }, 60_000); // two mcp-serve compiling .ts and a redis-server: generous on a busy machine

  afterAll(async () => {
    for (const instance of [a, b]) instance?.child.kill('SIGKILL');
    await redis?.stop();
  });

  test('a task created on A is polled, answered (an elicitation) and cancelled through B', async () => {
    const created = (await callTool(a, 'welcome', { name: 'Ada' })).result;
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    const { taskId } = created;
    const parked = await settles(b, taskId, 'input_required');
    const [key, ask] = Object.entries(parked.inputRequests as Record<string, any>)[0]!;
    expect(ask).toMatchObject({ method: 'elicitation/create', params: { message: 'Welcome Ada?' } });
    expect(await rpc(b, 'tasks/update', { taskId, inputResponses: { [key]: { action: 'accept', content: { ok: true } } } }, taskId)).toMatchObject({
      result: { resultType: 'complete' },
    });
    // A resumed the handler where it waited, in memory (no replay on B).
    await a.waitForStderr(`tasks-cluster: welcome resumed (pid ${a.child.pid})`);
    const done = await settles(b, taskId, 'completed');
    expect(done.result.content).toEqual([{ type: 'text', text: `Hello, Ada (from pid ${a.child.pid})` }]);
    expect(b.stderr()).not.toContain('welcome resumed');

    const counting = (await callTool(a, 'countdown', { seconds: 60 })).result;
    await a.waitForStderr(`tasks-cluster: countdown started (pid ${a.child.pid})`);
    expect(await rpc(b, 'tasks/cancel', { taskId: counting.taskId }, counting.taskId)).toMatchObject({ result: { resultType: 'complete' } });
    // The cancel reached A's ctx.signal through Redis.
    await a.waitForStderr(`tasks-cluster: countdown cancelled (pid ${a.child.pid})`);
    await settles(b, counting.taskId, 'cancelled');
  }, 30_000);

  test('A killed (SIGKILL) mid-task: the task reads failed from B within the lease plus one sweep', async () => {
    const counting = (await callTool(a, 'countdown', { seconds: 60 })).result;
    await a.waitForStderr(/countdown started[^\n]*\n(?![\s\S]*countdown)/);
    // Past two leases, A's renewals keep the task working (B's sweep runs meanwhile).
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS * 2));
    expect(await getTask(b, counting.taskId)).toMatchObject({ status: 'working' });
    const killedAt = Date.now();
    a.child.kill('SIGKILL');
    await a.exited;
    const failed = await settles(b, counting.taskId, 'failed', LEASE_MS * 2 + 5000);
    expect(Date.now() - killedAt).toBeLessThan(LEASE_MS + LEASE_MS / 3 + 2000);
    expect(failed.statusMessage).toMatch(/^The server instance running this task stopped; its lease expired at \d{4}-\d\d-\d\dT/);
    expect(failed.error).toMatchObject({ code: -32603 });
  }, 30_000);

  test('redis-server killed: a task call fails with a clear error and no task id, while greet is served', async () => {
    await redis.kill();
    try {
      const refused = await callTool(b, 'countdown', { seconds: 1 });
      expect(refused.result).toBeUndefined();
      expect(refused.error).toMatchObject({ code: -32603, message: expect.stringMatching(/^Task store unavailable: /) });
      expect(JSON.stringify(refused)).not.toContain('taskId');
      expect((await callTool(b, 'greet', {}, false)).result.content).toEqual([{ type: 'text', text: `Hello from pid ${b.child.pid}` }]);
    } finally {
      await redis.start();
    }
    // Once Redis is back, tasks are created again (the bus reconnects on its own).
    const deadline = Date.now() + 10_000;
    let answer = await callTool(b, 'countdown', { seconds: 0 });
    while (answer.error && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      answer = await callTool(b, 'countdown', { seconds: 0 });
    }
    expect(answer.result).toMatchObject({ resultType: 'task' });
  }, 30_000);
});
