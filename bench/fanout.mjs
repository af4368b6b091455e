#!/usr/bin/env node
/**
 * Fan-out latency across instances (issue #18): two Decorum HTTP servers (mcpPlugin, each in its
 * own process) share a RedisNotificationBus on a redis-server this script starts (a free port, no
 * persistence, a temp dir) and stops. FANOUT_LISTENERS [1000] subscriptions/listen streams are
 * spread evenly over the two; then, FANOUT_ROUNDS [5] times, one run-time change is made on the
 * first instance (`live.tools.disable`, then `enable`) and the time until each stream has its
 * tools/list_changed is taken: the first instance's own listeners (local), the second's (through
 * Redis: the change is replicated and the second instance publishes its own), and all of them.
 * Needs a build (`npm run build`) and redis-server.
 *
 *   node bench/fanout.mjs [--json]
 *   FANOUT_LISTENERS=200 FANOUT_ROUNDS=2 node bench/fanout.mjs
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startRedis } from '../test/support/redis-server.mjs';
import { get, listen, rerunWithOpenFiles } from './listen-client.mjs';
import { pingServerClass } from './ping-server.mjs';

const LISTENERS = Number(process.env.FANOUT_LISTENERS ?? 1000);
const ROUNDS = Number(process.env.FANOUT_ROUNDS ?? 5);
const SELF = fileURLToPath(import.meta.url);
const BATCH = 100;
const ROUND_TIMEOUT_MS = 30_000;

// ---------------------------------------------------------------------------------------------
// The servers (child processes)

async function serve(redisUrl) {
  const { default: Fastify } = await import('fastify');
  const { mcpPlugin } = await import('@decorum/fastify');
  const { RedisNotificationBus } = await import('@decorum/redis');
  const Live = await pingServerClass('fanout-bench');
  const bus = new RedisNotificationBus({ url: redisUrl });
  await bus.ready();
  const app = Fastify({ logger: false });
  await app.register(mcpPlugin, { servers: [Live], requestLogLevel: false, notificationBus: bus });
  const live = () => app.mcpServers.get('/mcp').live;
  app.get('/memory', async () => ({ subscribers: live().bus.size, ...bus.stats() }));
  app.post('/change', async () => {
    if (live().tools.isEnabled('ping')) live().tools.disable('ping');
    else live().tools.enable('ping');
    return {};
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  process.once('disconnect', () => process.exit(0));
  process.send({ port: app.server.address().port });
}

// ---------------------------------------------------------------------------------------------
// The measurement (this process)

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function startServer(redisUrl) {
  const env = { ...process.env, DECORUM_LOG_LEVEL: process.env.DECORUM_LOG_LEVEL ?? 'warn' };
  const child = fork(SELF, ['--server', redisUrl], { stdio: ['ignore', 2, 2, 'ipc'], env });
  return new Promise((resolve, reject) => {
    child.once('message', ({ port }) => resolve({ child, port }));
    child.once('exit', (code, signal) => reject(new Error(`a fan-out server exited (${code ?? signal}) before it listened`)));
  });
}

async function measure() {
  const redis = await startRedis();
  const servers = [];
  try {
    servers.push(...(await Promise.all([startServer(redis.url), startServer(redis.url)])));
    // Every stream notes when its latest change arrived; a round waits for all of them.
    const streams = [];
    let arrived = 0;
    let wake = () => {};
    const opened = performance.now();
    for (let i = 0; i < LISTENERS; i += BATCH) {
      const batch = Array.from({ length: Math.min(BATCH, LISTENERS - i) }, (_, j) => {
        const id = i + j;
        const entry = { local: id % 2 === 0, at: 0 };
        streams.push(entry);
        return listen(servers[id % 2].port, id, () => {
          entry.at = performance.now();
          if (++arrived === LISTENERS) wake();
        }).then((stream) => Object.assign(entry, { stream }));
      });
      await Promise.all(batch);
    }
    const openMs = performance.now() - opened;
    const counts = await Promise.all(servers.map((s) => get(s.port, '/memory')));
    if (counts.reduce((n, c) => n + c.subscribers, 0) !== LISTENERS)
      throw new Error(`the servers count ${counts.map((c) => c.subscribers).join(' + ')} subscribers with ${LISTENERS} streams open`);

    const rounds = [];
    for (let round = 0; round < ROUNDS; round++) {
      arrived = 0;
      const all = new Promise((resolve, reject) => {
        wake = resolve;
        setTimeout(
          () => reject(new Error(`round ${round + 1}: only ${arrived} of ${LISTENERS} streams got the change within ${ROUND_TIMEOUT_MS / 1000} s`)),
          ROUND_TIMEOUT_MS,
        ).unref();
      });
      const started = performance.now();
      await get(servers[0].port, '/change', 'POST');
      await all;
      const latencies = (local) =>
        streams
          .filter((s) => s.local === local)
          .map((s) => s.at - started)
          .sort((a, b) => a - b);
      const local = latencies(true);
      const remote = latencies(false);
      const both = [...local, ...remote].sort((a, b) => a - b);
      rounds.push({
        allMs: both.at(-1),
        p50Ms: percentile(both, 50),
        p99Ms: percentile(both, 99),
        localMaxMs: local.at(-1),
        remoteP50Ms: percentile(remote, 50),
        remoteMaxMs: remote.at(-1),
      });
      await new Promise((r) => setTimeout(r, 100));
    }
    const after = await Promise.all(servers.map((s) => get(s.port, '/memory')));
    for (const s of streams) s.stream.close();
    const summary = Object.fromEntries(Object.keys(rounds[0]).map((k) => [k, median(rounds.map((r) => r[k]))]));
    return {
      listeners: LISTENERS,
      instances: servers.length,
      rounds: ROUNDS,
      openMs,
      median: summary,
      runs: rounds,
      buffered: after.map((a) => a.buffered),
      dropped: after.map((a) => a.dropped),
    };
  } finally {
    for (const s of servers) s.child.kill();
    await redis.stop();
  }
}

function table(r) {
  const f = (n) => n.toFixed(1);
  const m = r.median;
  return [
    `${r.listeners} listeners over ${r.instances} instances (Redis bus), median of ${r.rounds} rounds, ms from the change request:`,
    '',
    '| all delivered | p50 | p99 | local (instance A) done | remote (instance B) p50 | remote done |',
    '| ---: | ---: | ---: | ---: | ---: | ---: |',
    `| ${f(m.allMs)} | ${f(m.p50Ms)} | ${f(m.p99Ms)} | ${f(m.localMaxMs)} | ${f(m.remoteP50Ms)} | ${f(m.remoteMaxMs)} |`,
  ].join('\n');
}

async function main() {
  // A socket per stream on this side, half of them on each server; plus what Node keeps open.
  if (rerunWithOpenFiles(LISTENERS + 256, SELF)) return;
  const result = await measure();
  process.stdout.write(process.argv.includes('--json') ? `${JSON.stringify(result)}\n` : `${table(result)}\n`);
  process.exit(0);
}

if (process.argv.includes('--server')) await serve(process.argv[process.argv.indexOf('--server') + 1]);
else
  await main().catch((error) => {
    process.stderr.write(`fanout: ${error?.stack ?? error}\n`);
    process.exit(1);
  });
