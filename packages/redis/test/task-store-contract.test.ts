// One contract, every store: each TaskStore (memory, Redis) must pass the same tests. `pair()` gives two
// stores over the same tasks (for memory, one store twice; for Redis, two stores on two connections).
import { MemoryTaskStore, TaskStoreFullError, TaskStoreUnavailableError, type TaskEvent, type TaskRecord, type TaskStore } from '@decorum/core';
import { RedisNotificationBus, RedisTaskStore } from '@decorum/redis';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { startRedis, until, type TestRedis } from '@decorum-internal/test-support';

interface StoreKind {
  readonly name: string;
  /** Two stores over the same tasks. */
  pair(): Promise<[TaskStore, TaskStore]>;
}

const opened: TaskStore[] = [];
const clients: Redis[] = [];
let redis: TestRedis;

beforeAll(async () => {
  redis = await startRedis();
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
  for (const client of clients.splice(0)) client.disconnect();
});

afterAll(async () => {
  await redis.stop();
});

/** A connection as the bus makes its own: commands fail at once while Redis is away, and it reconnects quickly. */
async function connection(): Promise<Redis> {
  const client = new Redis(redis.url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, retryStrategy: () => 20 });
  client.on('error', () => {});
  clients.push(client);
  await until('the connection is ready', () => client.status === 'ready');
  return client;
}

let prefixes = 0;
/** A store on its own two connections, under `keyPrefix`. */
async function redisStore(keyPrefix: string, timeoutMs?: number): Promise<RedisTaskStore> {
  const store = new RedisTaskStore({ client: await connection(), subscriber: await connection(), keyPrefix, timeoutMs });
  opened.push(store);
  return store;
}

const memory: StoreKind = {
  name: 'MemoryTaskStore',
  async pair() {
    const store = new MemoryTaskStore();
    opened.push(store);
    return [store, store];
  },
};

const onRedis: StoreKind = {
  name: 'RedisTaskStore',
  async pair() {
    const keyPrefix = `test:${++prefixes}:tasks:`;
    const a = await redisStore(keyPrefix);
    const b = await redisStore(keyPrefix);
    await listening(a, b);
    return [a, b];
  },
};

/** Resolves once `b` hears what `a` publishes (each store subscribes when its connection is ready). */
async function listening(a: RedisTaskStore, b: RedisTaskStore): Promise<void> {
  const probe = task({ runner: { instance: 'probe', leaseUntil: 0 } });
  await a.create(probe);
  let heard = false;
  const stop = b.watch((event) => (heard ||= event.type === 'changed' && event.record.taskId === probe.taskId));
  for (let tries = 0; !heard; tries++) {
    if (tries === 100) throw new Error('the second store never heard the first');
    // A claim of an expired lease is published: the first one b hears proves it is subscribed.
    await a.lease(probe.taskId, `probe-${++ids}`, 0, { claim: true });
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  stop();
}

let ids = 0;
/** A fresh `working` task, created now, one hour to live. */
function task(fields: Partial<TaskRecord> = {}): TaskRecord {
  const now = Date.now();
  return {
    taskId: `task-${process.pid}-${++ids}`,
    era: 'modern',
    tool: 'slow',
    status: 'working',
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: 3_600_000,
    pollIntervalMs: 500,
    inputRequests: {},
    answers: {},
    journal: {},
    version: 1,
    ...fields,
  };
}

function events(store: TaskStore): TaskEvent[] {
  const heard: TaskEvent[] = [];
  store.watch((event) => heard.push(event));
  return heard;
}

describe.each([memory, onRedis])('$name (the TaskStore contract)', (kind: StoreKind) => {
  test('create, then get from either store; a record handed in or out is a copy', async () => {
    const [a, b] = await kind.pair();
    const record = task({
      owner: 'alice',
      journal: { step: { n: 1 } },
      result: { content: [], structuredContent: { big: Number.MAX_SAFE_INTEGER, list: [] } },
    });
    await a.create(record);
    const read = await b.get(record.taskId);
    expect(read).toEqual(record);
    (read!.journal as Record<string, unknown>).step = 'changed';
    (record.journal as Record<string, unknown>).step = 'changed too';
    expect((await a.get(record.taskId))!.journal).toEqual({ step: { n: 1 } });
    expect(await a.get('no-such-task')).toBeUndefined();
  });

  test('transition is a compare-and-set: expected statuses, version and lastUpdatedAt bumped, terminal never changes', async () => {
    const [a, b] = await kind.pair();
    const record = task();
    await a.create(record);
    expect(await b.transition(record.taskId, { statusMessage: 'nope' }, { statuses: ['input_required'] })).toBeUndefined();
    const asked = await b.transition(record.taskId, { status: 'input_required', inputRequests: { name: { method: 'elicitation/create' } } });
    expect(asked).toMatchObject({ status: 'input_required', version: 2, inputRequests: { name: { method: 'elicitation/create' } } });
    expect(asked!.lastUpdatedAt).toBeGreaterThanOrEqual(record.lastUpdatedAt);
    const done = await a.transition(record.taskId, { status: 'completed', result: { content: [] } }, { statuses: ['working', 'input_required'] });
    expect(done).toMatchObject({ status: 'completed', version: 3, inputRequests: {}, result: { content: [] } });
    expect(await b.transition(record.taskId, { status: 'failed' })).toBeUndefined();
    expect(await a.requestCancel(record.taskId)).toMatchObject({ status: 'completed', version: 3 });
    expect(await a.lease(record.taskId, 'a', Date.now() + 1000)).toBe(false);
    expect(await b.get(record.taskId)).toMatchObject({ status: 'completed', version: 3 });
    expect(await a.transition('no-such-task', { status: 'failed' })).toBeUndefined();
  });

  test('answer takes only outstanding keys, and the task works again once none is left', async () => {
    const [a, b] = await kind.pair();
    const record = task({ status: 'input_required', inputRequests: { first: { method: 'elicitation/create' }, second: { method: 'sampling/createMessage' } } });
    await a.create(record);
    const one = await b.answer(record.taskId, { first: { action: 'accept' }, unknown: { action: 'accept' } });
    expect(one.accepted).toEqual(['first']);
    expect(one.record).toMatchObject({ status: 'input_required', inputRequests: { second: {} }, answers: { first: { action: 'accept' } }, version: 2 });
    expect(one.record!.inputRequests).not.toHaveProperty('first');
    const again = await a.answer(record.taskId, { first: { action: 'decline' } });
    expect(again.accepted).toEqual([]);
    expect(again.record!.answers).toEqual({ first: { action: 'accept' } });
    const two = await a.answer(record.taskId, { second: { role: 'assistant' } });
    expect(two.accepted).toEqual(['second']);
    expect(two.record).toMatchObject({ status: 'working', inputRequests: {}, version: 3 });
    expect(await a.answer('no-such-task', { first: {} })).toEqual({ accepted: [], record: undefined });
  });

  test('requestCancel marks the task and tells every watcher; answers are signalled too', async () => {
    const [a, b] = await kind.pair();
    const heard = events(a);
    const record = task({ status: 'input_required', inputRequests: { q: {} } });
    await a.create(record);
    await b.answer(record.taskId, { q: { action: 'accept' } });
    const cancelled = await b.requestCancel(record.taskId);
    expect(cancelled).toMatchObject({ cancelRequested: true, status: 'working' });
    expect(await b.requestCancel('no-such-task')).toBeUndefined();
    await until('a hears the answer and the cancel', () => heard.some((event) => event.type === 'cancel'));
    expect(heard).toContainEqual({ type: 'answered', taskId: record.taskId, keys: ['q'] });
    expect(heard).toContainEqual({ type: 'cancel', taskId: record.taskId });
    expect(heard).toContainEqual({ type: 'changed', record: expect.objectContaining({ taskId: record.taskId, cancelRequested: true }) });
  });

  test('leases: the holder renews, another instance is refused while it holds and claims once it expired', async () => {
    const [a, b] = await kind.pair();
    const record = task({ runner: { instance: 'A', leaseUntil: Date.now() + 60_000 } });
    await a.create(record);
    expect(await a.lease(record.taskId, 'A', Date.now() + 90_000)).toBe(true);
    expect(await b.lease(record.taskId, 'B', Date.now() + 90_000)).toBe(false);
    expect(await b.lease(record.taskId, 'B', Date.now() + 90_000, { claim: true })).toBe(false);
    expect(await b.expiredLeases(Date.now(), 100)).not.toContain(record.taskId);
    expect(await a.lease(record.taskId, 'A', Date.now() - 1)).toBe(true);
    expect(await b.expiredLeases(Date.now(), 100)).toContain(record.taskId);
    expect(await b.lease(record.taskId, 'B', Date.now() + 90_000)).toBe(false);
    expect(await b.lease(record.taskId, 'B', Date.now() + 90_000, { claim: true })).toBe(true);
    expect((await a.get(record.taskId))!.runner).toMatchObject({ instance: 'B' });
    expect(await a.lease(record.taskId, 'A', Date.now() + 90_000)).toBe(false);
  });

  test('a sweep fails a task only while its lease is still expired (leaseEndedBy)', async () => {
    const [a, b] = await kind.pair();
    const record = task({ runner: { instance: 'A', leaseUntil: Date.now() + 60_000 } });
    await a.create(record);
    expect(await b.transition(record.taskId, { status: 'failed' }, { leaseEndedBy: Date.now() })).toBeUndefined();
    await a.lease(record.taskId, 'A', Date.now() - 10);
    expect(await b.transition(record.taskId, { status: 'failed' }, { statuses: ['working'], leaseEndedBy: Date.now() })).toMatchObject({ status: 'failed' });
    expect(await b.expiredLeases(Date.now(), 100)).not.toContain(record.taskId);
  });

  test('a task expires ttlMs after its creation; one without a ttl does not', async () => {
    const [a, b] = await kind.pair();
    const short = task({ ttlMs: 300 });
    const forever = task({ ttlMs: null, createdAt: Date.now() - 10_000_000 });
    await a.create(short);
    await a.create(forever);
    expect(await b.get(short.taskId)).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await b.get(short.taskId)).toBeUndefined();
    expect(await b.transition(short.taskId, { status: 'failed' })).toBeUndefined();
    expect(await b.get(forever.taskId)).toMatchObject({ ttlMs: null });
  });

  test('list: one owner (and session) only, newest first, in pages by cursor', async () => {
    const [a, b] = await kind.pair();
    const owner = `owner-${++ids}`;
    const base = Date.now();
    const mine = [0, 1, 2, 3, 4].map((n) => task({ owner, session: n % 2 === 0 ? 's1' : 's2', createdAt: base + n }));
    for (const record of mine) await a.create(record);
    await a.create(task({ owner: `${owner}-other`, createdAt: base + 10 }));
    await a.create(task({ createdAt: base + 11 }));
    const first = await b.list(owner, undefined, undefined, 2);
    expect(first.records.map((record) => record.taskId)).toEqual([mine[4]!.taskId, mine[3]!.taskId]);
    const second = await b.list(owner, undefined, first.nextCursor, 2);
    expect(second.records.map((record) => record.taskId)).toEqual([mine[2]!.taskId, mine[1]!.taskId]);
    const third = await b.list(owner, undefined, second.nextCursor, 2);
    expect(third.records.map((record) => record.taskId)).toEqual([mine[0]!.taskId]);
    expect(third.nextCursor).toBeUndefined();
    const s2 = await b.list(owner, 's2', undefined, 10);
    expect(s2.records.map((record) => record.taskId)).toEqual([mine[3]!.taskId, mine[1]!.taskId]);
    await expect(b.list(owner, undefined, 'not-a-cursor', 2)).rejects.toThrow(/Invalid cursor/);
  });
});

describe('MemoryTaskStore (bounds)', () => {
  test('when full it drops expired tasks, then the oldest finished one, and otherwise refuses with TaskStoreFullError', async () => {
    let now = 1_000_000;
    const store = new MemoryTaskStore({ maxTasks: 3, now: () => now });
    opened.push(store);
    const at = (fields: Partial<TaskRecord>) => task({ createdAt: now, lastUpdatedAt: now, ...fields });
    const expiring = at({ ttlMs: 100 });
    const finished = at({});
    const working = at({});
    await store.create(expiring);
    await store.create(finished);
    await store.create(working);
    await store.transition(finished.taskId, { status: 'completed' });
    now += 200;
    const fourth = at({});
    await store.create(fourth);
    expect(store.size).toBe(3);
    expect(await store.get(expiring.taskId)).toBeUndefined();
    expect(await store.get(finished.taskId)).toBeDefined();
    const fifth = at({});
    await store.create(fifth);
    expect(await store.get(finished.taskId)).toBeUndefined();
    const refused = store.create(at({}));
    await expect(refused).rejects.toBeInstanceOf(TaskStoreFullError);
    await expect(refused).rejects.toMatchObject({ code: -32603, message: expect.stringMatching(/^Task store full: .*maxTasks/) });
    expect(await store.get(working.taskId)).toBeDefined();
  });

  test('the sweep drops expired tasks without a read', async () => {
    const store = new MemoryTaskStore({ sweepIntervalMs: 50 });
    opened.push(store);
    await store.create(task({ ttlMs: 20 }));
    await store.create(task({ ttlMs: 60_000 }));
    await until('the sweep dropped the expired task', () => store.size === 1);
  });
});

describe('RedisTaskStore (Redis itself)', () => {
  test('Redis down or hung: every operation rejects with TaskStoreUnavailableError, and works again once Redis is back', async () => {
    const store = await redisStore(`test:${++prefixes}:tasks:`, 300);
    const record = task();
    await store.create(record);
    const admin = await connection();
    // CLIENT PAUSE holds every command: a Redis that does not answer.
    await admin.call('CLIENT', 'PAUSE', '1000', 'ALL');
    const hung = store.create(task());
    await expect(hung).rejects.toBeInstanceOf(TaskStoreUnavailableError);
    await expect(hung).rejects.toMatchObject({
      code: -32603,
      message: expect.stringMatching(/^Task store unavailable: storing a task in Redis failed: Redis did not answer within 300 ms/),
    });
    await redis.kill();
    try {
      for (const operation of [
        () => store.create(task()),
        () => store.get(record.taskId),
        () => store.transition(record.taskId, { status: 'completed' }),
        () => store.answer(record.taskId, { q: {} }),
        () => store.requestCancel(record.taskId),
        () => store.lease(record.taskId, 'A', Date.now() + 1000),
        () => store.expiredLeases(Date.now(), 10),
        () => store.list(undefined, undefined, undefined, 10),
      ]) {
        await expect(operation()).rejects.toBeInstanceOf(TaskStoreUnavailableError);
      }
      await expect(store.get(record.taskId)).rejects.toThrow(/^Task store unavailable: reading a task in Redis failed: /);
    } finally {
      await redis.start();
    }
    let back = false;
    await until('the store answers again', () => {
      void store.get(record.taskId).then(
        () => (back = true),
        () => undefined,
      );
      return back;
    });
    const again = task();
    await store.create(again);
    expect(await store.get(again.taskId)).toMatchObject({ taskId: again.taskId });
  });

  test("an owner's index drops expired ids and expires with the owner's last task", async () => {
    const prefix = `test:${++prefixes}:tasks:`;
    const store = await redisStore(prefix);
    const admin = await connection();
    const owner = `owner-${++ids}`;
    const index = `${prefix}owner:=${owner}`;
    await store.create(task({ owner, ttlMs: 200 }));
    const pttl = await admin.pttl(index);
    expect(pttl).toBeGreaterThan(0);
    expect(pttl).toBeLessThanOrEqual(200);
    await new Promise((resolve) => setTimeout(resolve, 250));
    const kept = task({ owner, ttlMs: 60_000 });
    await store.create(kept);
    expect(await admin.zrange(index, 0, -1)).toEqual([kept.taskId]);
    expect(await admin.pttl(index)).toBeGreaterThan(50_000);
    await store.create(task({ owner, ttlMs: null }));
    expect(await admin.pttl(index)).toBe(-1);
  });

  test('RedisNotificationBus offers a shared taskStore: a cancel on one instance reaches the other, and the bus ignores the tasks channel', async () => {
    const warnings: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line).msg as string) });
    const channel = `test:${++prefixes}:live`;
    const a = new RedisNotificationBus({ url: redis.url, channel, logger });
    const b = new RedisNotificationBus({ url: redis.url, channel, logger });
    try {
      await Promise.all([a.ready(), b.ready()]);
      expect(a.taskStore).toBe(a.taskStore);
      const heard: TaskEvent[] = [];
      b.taskStore.watch((event) => heard.push(event));
      const record = task();
      await a.taskStore.create(record);
      expect(await b.taskStore.get(record.taskId)).toMatchObject({ taskId: record.taskId });
      for (let tries = 0; !heard.some((event) => event.type === 'changed'); tries++) {
        if (tries === 100) throw new Error('b never heard a change made on a');
        await a.taskStore.transition(record.taskId, { statusMessage: `try ${tries}` });
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await a.taskStore.requestCancel(record.taskId);
      await until('b hears the cancel', () => heard.some((event) => event.type === 'cancel'));
      expect(heard).toContainEqual({ type: 'cancel', taskId: record.taskId });
      expect(warnings.filter((msg) => msg.includes('not a Decorum'))).toEqual([]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
