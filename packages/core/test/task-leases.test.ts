// TaskLeases: two "instances" (A runs tasks, B sweeps) over one store, with short leases.
import { MemoryTaskStore, type TaskRecord } from '@decorum/core';
import { TaskLeases, type TaskLeasesOptions } from '../src/extensions/tasks/task-leases.js';
import { until } from '@decorum-internal/test-support';

const closing: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((item) => item.close()));
});

function storeOf(): MemoryTaskStore {
  const store = new MemoryTaskStore();
  closing.push(store);
  return store;
}

/** Leases of `instance`, sweeping only when asked (the interval is an hour) unless `sweepIntervalMs` says otherwise. */
function leasesOf(store: MemoryTaskStore, instance: string, options: Partial<TaskLeasesOptions> = {}): TaskLeases {
  const leases = new TaskLeases({ store, instance, leaseMs: 300, sweepIntervalMs: 3_600_000, ...options });
  closing.push(leases);
  return leases;
}

let ids = 0;
async function created(store: MemoryTaskStore, fields: Partial<TaskRecord> = {}): Promise<TaskRecord> {
  const now = Date.now();
  const record: TaskRecord = {
    taskId: `lease-${++ids}`,
    era: 'modern',
    tool: 'slow',
    status: 'working',
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: 60_000,
    pollIntervalMs: 100,
    inputRequests: {},
    answers: {},
    journal: {},
    version: 1,
    ...fields,
  };
  await store.create(record);
  return record;
}

let leased = false;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('TaskLeases', () => {
  test('a held lease is renewed past leaseMs, so no sweep fails the task; once renewals stop it is failed with the lease end', async () => {
    const store = storeOf();
    const a = leasesOf(store, 'A');
    const b = leasesOf(store, 'B');
    const record = await created(store);
    expect(await a.hold(record.taskId)).toBe(true);
    await pause(700);
    expect(await b.sweep()).toBe(0);
    expect(await store.get(record.taskId)).toMatchObject({ status: 'working', runner: { instance: 'A' } });
    // A stops renewing without a word (as a killed instance does).
    a.release(record.taskId);
    const leaseUntil = (await store.get(record.taskId))!.runner!.leaseUntil;
    expect(await b.sweep()).toBe(0);
    await pause(leaseUntil - Date.now() + 20);
    expect(await b.sweep()).toBe(1);
    const failed = await store.get(record.taskId);
    const message = `The server instance running this task stopped; its lease expired at ${new Date(leaseUntil).toISOString()}`;
    expect(failed).toMatchObject({ status: 'failed', statusMessage: message, error: { code: -32603, message } });
    expect(await b.sweep()).toBe(0);
  });

  test("every instance sweeps on its own timer: a dead runner's parked task fails within the lease plus one sweep; spared ones stay", async () => {
    const store = storeOf();
    const b = leasesOf(store, 'B', { sweepIntervalMs: 100, spare: (record) => record.tool === 'resumable' });
    const lapsed = Date.now() + 150;
    const parked = await created(store, { status: 'input_required', inputRequests: { q: {} }, runner: { instance: 'A', leaseUntil: lapsed } });
    const spared = await created(store, {
      tool: 'resumable',
      status: 'input_required',
      inputRequests: { q: {} },
      runner: { instance: 'A', leaseUntil: lapsed },
    });
    const done = await created(store, { status: 'completed', runner: { instance: 'A', leaseUntil: lapsed } });
    let status: string | undefined;
    await until('the sweep failed the parked task', () => {
      void store.get(parked.taskId).then((record) => (status = record?.status));
      return status === 'failed';
    });
    expect(Date.now() - lapsed).toBeLessThan(100 + 250);
    expect(await store.get(parked.taskId)).toMatchObject({ inputRequests: {} });
    expect(await store.get(spared.taskId)).toMatchObject({ status: 'input_required' });
    expect(await store.get(done.taskId)).toMatchObject({ status: 'completed' });
    expect(b.leaseMs).toBe(300);
  });

  test('settle fails a stale task on read (tasks/get), and leaves a live one alone', async () => {
    const store = storeOf();
    const b = leasesOf(store, 'B');
    const live = await created(store, { runner: { instance: 'A', leaseUntil: Date.now() + 60_000 } });
    const stale = await created(store, { runner: { instance: 'A', leaseUntil: Date.now() - 1 } });
    expect(await b.settle(live)).toBe(live);
    expect(await b.settle(stale)).toMatchObject({ status: 'failed', statusMessage: expect.stringMatching(/^The server instance running this task stopped/) });
  });

  test('a clean shutdown releases the held leases at once; a lost lease is reported and no longer renewed', async () => {
    const store = storeOf();
    const lost: string[] = [];
    const a = leasesOf(store, 'A', { leaseMs: 60_000, onLost: (taskId) => lost.push(taskId) });
    const b = leasesOf(store, 'B', { leaseMs: 60_000 });
    const one = await created(store);
    const two = await created(store);
    expect(await a.hold(one.taskId)).toBe(true);
    expect(await a.hold(two.taskId)).toBe(true);
    expect(await b.hold(one.taskId, { claim: true })).toBe(false);
    await a.close();
    expect(a.holds(one.taskId)).toBe(false);
    expect(await a.hold(one.taskId)).toBe(false);
    expect(await b.hold(one.taskId, { claim: true })).toBe(true);
    // A lease lost while held: c holds it, d claims it once it lapsed, c's next renewal hears so.
    const c = leasesOf(store, 'C', { leaseMs: 90, onLost: (taskId) => lost.push(taskId) });
    const three = await created(store);
    expect(await c.hold(three.taskId)).toBe(true);
    await store.lease(three.taskId, 'C', Date.now() - 1);
    expect(await store.lease(three.taskId, 'D', Date.now() + 60_000, { claim: true })).toBe(true);
    await until('c hears it lost the lease', () => lost.includes(three.taskId));
    expect(c.holds(three.taskId)).toBe(false);
    expect(lost).toEqual([three.taskId]);
  });

  test('hold never rejects: when the store fails, an own task is held and its lease retried, a claim is refused', async () => {
    const store = storeOf();
    const record = await created(store);
    let failing = true;
    const flaky = Object.assign(Object.create(store) as MemoryTaskStore, {
      lease: (...args: Parameters<MemoryTaskStore['lease']>) => (failing ? Promise.reject(new Error('Redis is down')) : store.lease(...args)),
    });
    const a = leasesOf(flaky, 'A', { leaseMs: 90 });
    expect(await a.hold(record.taskId, { claim: true })).toBe(false);
    expect(await a.hold(record.taskId)).toBe(true);
    expect(a.holds(record.taskId)).toBe(true);
    failing = false;
    await until('a renewal wrote the lease once the store was back', () => {
      void store.get(record.taskId).then((now) => (leased = now?.runner?.instance === 'A'));
      return leased;
    });
  });

  test('options are checked at start-up', () => {
    const store = storeOf();
    expect(() => new TaskLeases({ store, instance: 'A', leaseMs: 0 })).toThrow('TaskLeases: leaseMs must be a positive integer (got 0)');
  });
});
