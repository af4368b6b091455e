// Replaying a parked resumable task (TaskRunner.claim / replay): two instances take the same orphaned
// task at once and only one replays it; a task whose lease is still held, or that is not resumable, is never taken.
import { pino } from 'pino';
import { MemoryTaskStore, type TaskRecord } from '@decorum/core';
import { TaskLeases } from '../src/extensions/tasks/task-leases.js';
import { TaskRunner } from '../src/extensions/tasks/task-runner.js';
import { taskSettings } from '../src/extensions/tasks/task-settings.js';
import { checkTaskOption } from '../src/extensions/tasks/task-option.js';
import { TASK_ERAS } from '../src/extensions/tasks/task-eras.js';

const closing: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((item) => item.close()));
});

const silent = pino({ level: 'silent' });
const ASK = { method: 'elicitation/create', params: { message: 'Go?', requestedSchema: { type: 'object', properties: {} } } };
const CALL = { name: 'pay', arguments: { amount: 1 }, clientCapabilities: { elicitation: { form: {} } }, protocolVersion: '2026-07-28' };

/** One instance's runner on the shared store (a lost lease stops the task here, as the extension wires it). */
function runnerOf(store: MemoryTaskStore, instance: string, leaseMs = 60_000): TaskRunner {
  const made: { runner?: TaskRunner } = {};
  const onLost = (taskId: string) => made.runner?.lost(taskId);
  const leases = new TaskLeases({ store, instance, leaseMs, sweepIntervalMs: 3_600_000, logger: silent, onLost });
  const runner = (made.runner = new TaskRunner(store, taskSettings({}), silent, 65_536, () => {}, leases));
  closing.push(leases, runner);
  return runner;
}

let ids = 0;
/** A task parked on instance `dead`, whose lease ends at `leaseUntil`. */
async function parked(store: MemoryTaskStore, leaseUntil: number, fields: Partial<TaskRecord> = { call: CALL }): Promise<TaskRecord> {
  const now = Date.now();
  const record: TaskRecord = {
    taskId: `replay-${++ids}`,
    era: 'modern',
    tool: 'pay',
    status: 'input_required',
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: 60_000,
    pollIntervalMs: 100,
    inputRequests: { go: ASK },
    answers: {},
    journal: { charge: 'ch_1' },
    runner: { instance: 'dead', leaseUntil },
    version: 1,
    ...fields,
  };
  await store.create(record);
  return (await store.get(record.taskId))!;
}

describe('TaskRunner replay', () => {
  test('two instances claim an orphaned task at once: exactly one replays it, and the replay completes it', async () => {
    const store = new MemoryTaskStore();
    closing.push(store);
    const [b, c] = [runnerOf(store, 'B'), runnerOf(store, 'C')];
    const record = await parked(store, Date.now() - 1000);
    expect(b.orphaned(record) && c.orphaned(record)).toBe(true);
    const claims = await Promise.all([b.claim(record), c.claim(record)]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    const winner = claims[0] ? b : c;
    await store.answer(record.taskId, { go: { action: 'accept', content: {} } });
    let runs = 0;
    await winner.replay(record.taskId, async () => {
      runs++;
      return { content: [{ type: 'text', text: 'replayed' }] };
    });
    const deadline = Date.now() + 5000;
    while ((await store.get(record.taskId))!.status !== 'completed' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const done = (await store.get(record.taskId))!;
    expect(runs).toBe(1);
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'replayed' }] } });
    expect(done.runner?.instance).toBe(claims[0] ? 'B' : 'C');
  });

  test('a task whose lease is still held, or that is not resumable, is never claimed', async () => {
    const store = new MemoryTaskStore();
    closing.push(store);
    const b = runnerOf(store, 'B');
    const held = await parked(store, Date.now() + 60_000);
    expect(b.orphaned(held)).toBe(false);
    expect(await b.claim(held)).toBe(false);
    expect((await store.get(held.taskId))!.runner?.instance).toBe('dead');
    const plain = await parked(store, Date.now() - 1000, {});
    expect(await b.claim(plain)).toBe(false);
    expect((await store.get(plain.taskId))!.runner?.instance).toBe('dead');
  });
});

test('@Tool({ task: { resumable } }) is checked at start-up: a boolean, and only with start immediate', () => {
  const settings = taskSettings({});
  expect(checkTaskOption({ support: 'optional', resumable: true }, 'pay', settings)).toMatchObject({ resumable: true, start: 'immediate' });
  expect(checkTaskOption('optional', 'pay', settings)).toMatchObject({ resumable: false });
  expect(() => checkTaskOption({ support: 'optional', resumable: 'yes' }, 'pay', settings)).toThrow(/"pay": task \.resumable is "yes" \(a boolean\)/);
  expect(() => checkTaskOption({ support: 'optional', resumable: true, start: 'handler' }, 'pay', settings)).toThrow(/\.resumable needs start 'immediate'/);
});

test('an instance whose lease another took over stops its handler and writes nothing more (no split brain)', async () => {
  const store = new MemoryTaskStore();
  closing.push(store);
  const a = runnerOf(store, 'A', 300);
  const record = await parked(store, Date.now() + 300, {
    call: CALL,
    status: 'working',
    inputRequests: {},
    runner: { instance: 'A', leaseUntil: Date.now() + 300 },
  });
  const running = a.prepare();
  running.begin(record, CALL.clientCapabilities, Date.now());
  const outcome = new Promise<never>((_resolve, reject) => running.signal.addEventListener('abort', () => reject(running.signal.reason)));
  a.adopt(record, TASK_ERAS.get('2026-07-28')!, running, outcome);
  // B claimed it (as a replay does): A's next renewal finds the lease gone.
  await store.transition(record.taskId, { runner: { instance: 'B', leaseUntil: Date.now() + 60_000 } });
  const deadline = Date.now() + 2000;
  while (!running.signal.aborted && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  expect(running.signal.reason).toMatchObject({ message: 'Another server instance took this task over' });
  await new Promise((r) => setTimeout(r, 50));
  expect(await store.get(record.taskId)).toMatchObject({ status: 'working', runner: { instance: 'B' } });
});
