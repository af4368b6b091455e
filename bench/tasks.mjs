#!/usr/bin/env node
/**
 * Tasks (issue #50), three numbers, each against a baseline taken in the same run:
 * - store: heap per stored task with TASKS_STORED [10000] finished tasks in a MemoryTaskStore
 *   (this script again, in a child with --expose-gc, GC forced before and after);
 * - redis: create and get latency (p50/p99) on a RedisTaskStore, against a plain SET and GET of
 *   the same record on the same connection, on a redis-server this script starts and stops;
 * - round: a task's round over HTTP (tools/call creating the task, then tasks/get until
 *   `completed`) against a plain tools/call of the same tool (bench/tasks-round.mjs).
 * Needs a build (`npm run build`) and redis-server.
 *
 *   node bench/tasks.mjs [--json]
 *   TASKS_STORED=2000 TASKS_OPS=500 node bench/tasks.mjs
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startRedis } from '../test/support/redis-server.mjs';
import { measureRound } from './tasks-round.mjs';

const STORED = Number(process.env.TASKS_STORED ?? 10_000);
const OPS = Number(process.env.TASKS_OPS ?? 2000);
const WARM_OPS = 200;
const SELF = fileURLToPath(import.meta.url);

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
/** p50 and p99 of `samples` (ms). */
const spread = (samples) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
};

let ids = 0;
/** A finished task as the Tasks extension stores one: a short text result, one answered ask. */
function finishedTask(now = Date.now()) {
  return {
    taskId: `${process.pid}-${++ids}-Xb3kQ0mVnR8sTq2wZyLp4aE7cJfHgK1uDiOo9vBtN5s`,
    era: 'modern',
    tool: 'build_report',
    status: 'completed',
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: 3_600_000,
    pollIntervalMs: 1000,
    inputRequests: {},
    answers: { 'elicitation-1': { action: 'accept', content: { confirm: true } } },
    journal: {},
    result: { content: [{ type: 'text', text: 'Report ready: 42 rows, 3 warnings.' }] },
    runner: { instance: 'bench', leaseUntil: now + 15_000 },
    version: 4,
  };
}

/** In the --expose-gc child: the heap that STORED finished tasks take in a MemoryTaskStore. */
async function storeChild() {
  const { MemoryTaskStore } = await import('@decorum/core');
  const store = new MemoryTaskStore({ maxTasks: STORED });
  // Warm the code paths first, so the baseline does not count compiled code.
  const warm = new MemoryTaskStore();
  for (let i = 0; i < 1000; i++) await warm.create(finishedTask());
  await warm.close();
  globalThis.gc();
  const before = process.memoryUsage().heapUsed;
  // Each record is made here and dropped once stored: what stays is the store's own copy.
  for (let i = 0; i < STORED; i++) await store.create(finishedTask());
  globalThis.gc();
  const after = process.memoryUsage().heapUsed;
  const json = Buffer.byteLength(JSON.stringify(finishedTask()));
  await store.close();
  return { tasks: STORED, heapPerTask: (after - before) / STORED, jsonBytes: json, held: store.size };
}

function measureStore() {
  const child = fork(SELF, ['--store'], { execArgv: ['--expose-gc'], stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  return new Promise((resolve, reject) =>
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1))) : reject(new Error(`the store child exited with ${code}`)))),
  );
}

/** Times `op` OPS times, one at a time (after WARM_OPS untimed); the samples in ms. */
async function timed(op) {
  for (let i = 0; i < WARM_OPS; i++) await op(i);
  const samples = [];
  for (let i = 0; i < OPS; i++) {
    const started = performance.now();
    await op(i);
    samples.push(performance.now() - started);
  }
  return samples;
}

async function measureRedis() {
  const { RedisTaskStore } = await import('@decorum/redis');
  const { Redis } = await import('ioredis');
  const redis = await startRedis();
  const connect = () => new Redis(redis.url, { enableOfflineQueue: true, maxRetriesPerRequest: 1 });
  const client = connect();
  const subscriber = connect();
  try {
    const store = new RedisTaskStore({ client, subscriber, keyPrefix: 'bench:tasks:' });
    const created = [];
    const create = await timed(async () => {
      const record = { ...finishedTask(), status: 'working' };
      created.push(record.taskId);
      await store.create(record);
    });
    const get = await timed((i) => store.get(created[i % created.length]));
    const text = JSON.stringify(finishedTask());
    const set = await timed((i) => client.set(`bench:plain:${i}`, text, 'PX', 3_600_000));
    const plainGet = await timed((i) => client.get(`bench:plain:${i % OPS}`));
    await store.close();
    return { ops: OPS, create: spread(create), get: spread(get), set: spread(set), plainGet: spread(plainGet) };
  } finally {
    client.disconnect();
    subscriber.disconnect();
    await redis.stop();
  }
}

async function main() {
  const store = await measureStore();
  const redis = await measureRedis();
  const round = await measureRound();
  return { store, redis, round };
}

if (process.argv.includes('--store')) {
  process.stdout.write(`${JSON.stringify(await storeChild())}\n`);
  process.disconnect?.();
} else {
  const r = await main();
  if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(r)}\n`);
  else {
    const ms = (x) => x.toFixed(3);
    process.stdout.write(
      [
        `| stored tasks | heap per task | its JSON |`,
        `| ---: | ---: | ---: |`,
        `| ${r.store.tasks.toLocaleString('en-US')} | ${(r.store.heapPerTask / 1024).toFixed(2)} KiB | ${r.store.jsonBytes} B |`,
        '',
        `| Redis (${r.redis.ops} each) | p50 ms | p99 ms | baseline p50 / p99 ms | ratio p50 |`,
        `| --- | ---: | ---: | ---: | ---: |`,
        `| create vs SET | ${ms(r.redis.create.p50)} | ${ms(r.redis.create.p99)} | ${ms(r.redis.set.p50)} / ${ms(r.redis.set.p99)} | ${(r.redis.create.p50 / r.redis.set.p50).toFixed(2)}× |`,
        `| get vs GET | ${ms(r.redis.get.p50)} | ${ms(r.redis.get.p99)} | ${ms(r.redis.plainGet.p50)} / ${ms(r.redis.plainGet.p99)} | ${(r.redis.get.p50 / r.redis.plainGet.p50).toFixed(2)}× |`,
        '',
        r.round.error
          ? `round: not measured (${r.round.error})`
          : `| round (${r.round.rounds} each) | task round p50 / p99 ms | plain call p50 / p99 ms | ratio p50 | gets per round |\n| --- | ---: | ---: | ---: | ---: |\n| ${r.round.tool} | ${ms(r.round.task.p50)} / ${ms(r.round.task.p99)} | ${ms(r.round.plain.p50)} / ${ms(r.round.plain.p99)} | ${(r.round.task.p50 / r.round.plain.p50).toFixed(2)}× | ${r.round.getsPerRound.toFixed(2)} |`,
        '',
      ].join('\n'),
    );
  }
}
