// Resuming a parked task on another instance (#50, deliverable 3): two `mcp-serve --http --bus redis://…`
// children on one redis-server. A resumable tool parked on A, A killed (SIGKILL): the `tasks/update` that
// reaches B claims the task and replays the handler there — `ctx.once` ran once in all, the answer finishes it.
// A parked tool that is not resumable fails once A's lease lapsed, as before.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveHttpProcess, type HttpProcess } from '../../packages/fastify/test/support/cli-process.js';
import { fixture, startRedis, type TestRedis } from '@decorum-internal/test-support';
import { getTask, rpc, settles } from './support/task-http.js';

/** The fixture's lease (see tasks-cluster-server.ts). */
const LEASE_MS = 1500;

describe('A parked task on a killed instance', () => {
  let redis: TestRedis;
  let dir: string;
  let charges: string;
  const instances: HttpProcess[] = [];
  const serve = async () => {
    const instance = await serveHttpProcess([fixture('tasks-cluster-server.ts'), '--http', '--port', '0', '--bus', redis.url], {
      TASKS_CLUSTER_CHARGES: charges,
    });
    instances.push(instance);
    return instance;
  };

  beforeAll(async () => {
    redis = await startRedis();
    dir = mkdtempSync(join(tmpdir(), 'tasks-replay-'));
    charges = join(dir, 'charges.log');
  });

  afterAll(async () => {
    for (const instance of instances) instance.child.kill('SIGKILL');
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('resumable: tasks/update on B replays it there; ctx.once ran once in all, and the answer completes it', async () => {
    const [a, b] = await Promise.all([serve(), serve()]);
    const created = (await rpc(a, 'tools/call', { name: 'pay', arguments: { amount: 42 } }, 'pay')).result;
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    const { taskId } = created;
    const parked = await settles(b, taskId, 'input_required');
    const [key] = Object.keys(parked.inputRequests as Record<string, unknown>);
    expect(readFileSync(charges, 'utf8')).toBe(`charged 42 by pid ${a.child.pid}\n`);

    a.child.kill('SIGKILL');
    await a.exited;
    // Past A's lease and several sweeps: the parked resumable task is spared, still input_required.
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS * 2));
    expect(await getTask(b, taskId)).toMatchObject({ status: 'input_required' });

    expect(
      await rpc(b, 'tasks/update', { taskId, inputResponses: { [key!]: { action: 'accept', content: { email: 'ada@example.com' } } } }, taskId),
    ).toMatchObject({
      result: { resultType: 'complete' },
    });
    const done = await settles(b, taskId, 'completed');
    expect(done.result.content).toEqual([{ type: 'text', text: `paid 42 (ch_${a.child.pid}), receipt to ada@example.com, finished by pid ${b.child.pid}` }]);
    // B ran the handler from the top, but the journaled charge did not run again.
    await b.waitForStderr(`tasks-cluster: pay started (pid ${b.child.pid})`);
    expect(readFileSync(charges, 'utf8')).toBe(`charged 42 by pid ${a.child.pid}\n`);
  }, 60_000);

  test('not resumable: the parked task reads failed once the lease lapsed, and an update does not revive it', async () => {
    const [a, b] = await Promise.all([serve(), serve()]);
    const { taskId } = (await rpc(a, 'tools/call', { name: 'welcome', arguments: { name: 'Ada' } }, 'welcome')).result;
    const parked = await settles(b, taskId, 'input_required');
    const [key] = Object.keys(parked.inputRequests as Record<string, unknown>);
    a.child.kill('SIGKILL');
    await a.exited;
    const failed = await settles(b, taskId, 'failed', LEASE_MS * 2 + 5000);
    expect(failed.statusMessage).toMatch(/^The server instance running this task stopped; its lease expired at /);
    await rpc(b, 'tasks/update', { taskId, inputResponses: { [key!]: { action: 'accept', content: { ok: true } } } }, taskId);
    expect(await getTask(b, taskId)).toMatchObject({ status: 'failed' });
    expect(b.stderr()).not.toContain('welcome asks');
  }, 60_000);
});
