import 'reflect-metadata';
import { createServer, MemoryRateLimitStore, type DecorumServer, type RateLimitRule, type ServerOptions } from '@decorum/core';
import { encodeMessage } from '@decorum/core/transport';
import { RedisNotificationBus, RedisRateLimitStore } from '@decorum/redis';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { startRedis, type TestRedis, until, request } from '@decorum-internal/test-support';
import { Ops } from '@decorum-internal/test-support/fixtures';

function recordingLogger() {
  const lines: Array<{ level: number; msg: string }> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

let redis: TestRedis;
const clients: Redis[] = [];
const buses: RedisNotificationBus[] = [];

/** A connection as the bus makes its own: commands fail at once while Redis is away, and it reconnects quickly. */
function connection(): Redis {
  const client = new Redis(redis.url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, retryStrategy: () => 20 });
  client.on('error', () => {});
  clients.push(client);
  return client;
}

async function ready(client: Redis): Promise<Redis> {
  await until('the connection is ready', () => client.status === 'ready');
  return client;
}

beforeAll(async () => {
  redis = await startRedis();
});

afterEach(async () => {
  for (const client of clients.splice(0)) client.disconnect();
  await Promise.all(buses.splice(0).map((bus) => bus.close()));
});

afterAll(async () => {
  await redis.stop();
});

let prefixes = 0;
const keyPrefix = () => `test:${++prefixes}:`;

describe('RedisRateLimitStore', () => {
  test('stores on two connections share one budget per key and rule; the counter expires with its window', async () => {
    const prefix = keyPrefix();
    const one = new RedisRateLimitStore({ client: await ready(connection()), keyPrefix: prefix });
    const two = new RedisRateLimitStore({ client: await ready(connection()), keyPrefix: prefix });
    const rule: RateLimitRule = { points: 3, durationMs: 30_000 };
    expect(await one.consume('alice', rule)).toEqual({ allowed: true, retryAfterMs: 0 });
    expect((await two.consume('alice', rule)).allowed).toBe(true);
    expect((await one.consume('alice', rule)).allowed).toBe(true);
    const refused = await two.consume('alice', rule);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterMs).toBeGreaterThan(0);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(30_000);
    // Another key, and another rule for the same key, count apart.
    expect((await one.consume('bob', rule)).allowed).toBe(true);
    expect((await one.consume('alice', { points: 3, durationMs: 10_000 })).allowed).toBe(true);
    const client = await ready(connection());
    expect(await client.get(`${prefix}3/30000:alice`)).toBe('4');
    const left = await client.pttl(`${prefix}3/30000:alice`);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(30_000);
  });

  test('the window ends: a key is allowed again once its counter expired', async () => {
    const prefix = keyPrefix();
    const store = new RedisRateLimitStore({ client: await ready(connection()), keyPrefix: prefix });
    const rule: RateLimitRule = { points: 1, durationMs: 100 };
    await store.consume('k', rule);
    expect((await store.consume('k', rule)).allowed).toBe(false);
    const client = await ready(connection());
    const deadline = Date.now() + 10_000;
    while ((await client.exists(`${prefix}1/100:k`)) === 1) {
      if (Date.now() > deadline) throw new Error('the counter never expired');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await store.consume('k', rule)).allowed).toBe(true);
  });

  test('a Redis that does not answer within timeoutMs: the call is counted in memory', async () => {
    const log = recordingLogger();
    const store = new RedisRateLimitStore({ client: await ready(connection()), keyPrefix: keyPrefix(), timeoutMs: 50, logger: log.logger });
    const admin = await ready(connection());
    // WRITE: scripts that may write wait, while CLIENT UNPAUSE (below) still runs.
    await admin.call('CLIENT', 'PAUSE', '10000', 'WRITE');
    try {
      const rule: RateLimitRule = { points: 1, durationMs: 60_000 };
      expect((await store.consume('k', rule)).allowed).toBe(true);
      expect((await store.consume('k', rule)).allowed).toBe(false);
      expect(store.inMemory).toBe(true);
      expect(log.lines.filter((l) => l.level === 40).map((l) => l.msg)).toEqual([
        "Redis unavailable for rate limits (no answer within 50 ms): counting them in this instance's memory until it answers again",
      ]);
    } finally {
      await admin.call('CLIENT', 'UNPAUSE');
    }
  });

  test('Redis down: limits stay on, counted in memory (one warning); back: counted in Redis again (one line)', async () => {
    const log = recordingLogger();
    const client = await ready(connection());
    const store = new RedisRateLimitStore({ client, keyPrefix: keyPrefix(), logger: log.logger });
    const rule: RateLimitRule = { points: 2, durationMs: 60_000 };
    await redis.kill();
    try {
      expect((await store.consume('k', rule)).allowed).toBe(true);
      expect((await store.consume('k', rule)).allowed).toBe(true);
      const refused = await store.consume('k', rule);
      expect(refused.allowed).toBe(false);
      expect(refused.retryAfterMs).toBeGreaterThan(0);
      expect(store.inMemory).toBe(true);
      expect(log.lines.filter((l) => l.level === 40)).toHaveLength(1);
      expect(log.lines[0].msg).toMatch(/^Redis unavailable for rate limits \(.+\): counting them in this instance's memory until it answers again$/);
    } finally {
      await redis.start();
    }
    await ready(client);
    // Redis came back empty: the key's budget starts over there.
    expect((await store.consume('k', rule)).allowed).toBe(true);
    expect(store.inMemory).toBe(false);
    expect(log.lines.map((l) => l.msg).at(-1)).toBe('Redis answers again: rate limits are counted there, shared by the instances');
  }, 30_000);

  test('bad options are refused', async () => {
    expect(() => new RedisRateLimitStore({ client: connection(), timeoutMs: 0 })).toThrow(
      expect.objectContaining({
        code: 'DECORUM_ERR_INVALID_NUMBER',
        message: 'DECORUM_ERR_INVALID_NUMBER: RedisRateLimitStore: timeoutMs must be a positive integer (got 0)',
      }),
    );
  });
});

describe('createServer with a RedisNotificationBus', () => {
  const quiet = pino({ level: 'silent' });
  async function instance(rateLimit: ServerOptions['rateLimit'], channel: string) {
    const bus = new RedisNotificationBus({ url: redis.url, channel, logger: quiet });
    buses.push(bus);
    await bus.ready();
    const server = createServer([Ops], { notificationBus: bus, rateLimit, logger: quiet });
    return { bus, server };
  }
  const deploy = async (server: DecorumServer, id: number) =>
    JSON.parse(encodeMessage((await server.engine.handle(request(id, 'tools/call', { name: 'deploy' }), { notify: () => {}, peer: '192.0.2.1' }))!));

  test('counts in the bus’s Redis store when rateLimit names no store: one budget over the instances, under the channel’s prefix', async () => {
    const a = await instance({ points: 2, durationMs: 60_000 }, 'shared-a');
    const b = await instance({ points: 2, durationMs: 60_000 }, 'shared-a');
    expect(a.bus.rateLimitStore).toBeInstanceOf(RedisRateLimitStore);
    expect((await deploy(a.server, 1)).result).toBeDefined();
    expect((await deploy(b.server, 2)).result).toBeDefined();
    expect((await deploy(a.server, 3)).error).toMatchObject({ code: -31429, data: { limit: 2, windowMs: 60_000 } });
    expect((await deploy(b.server, 4)).error).toMatchObject({ code: -31429 });
    const client = await ready(connection());
    expect(await client.get('shared-a:rate:2/60000:peer:192.0.2.1|tool:deploy')).toBe('4');
  });

  test('rateLimit.store overrides the bus’s store; rateLimit: false turns limits off', async () => {
    const a = await instance({ points: 1, durationMs: 60_000, store: new MemoryRateLimitStore() }, 'own-store');
    const b = await instance({ points: 1, durationMs: 60_000, store: new MemoryRateLimitStore() }, 'own-store');
    expect((await deploy(a.server, 1)).result).toBeDefined();
    expect((await deploy(b.server, 2)).result).toBeDefined();
    expect((await deploy(a.server, 3)).error.code).toBe(-31429);
    const client = await ready(connection());
    expect(await client.keys('own-store:rate:*')).toEqual([]);
    const off = await instance(false, 'no-limit');
    for (let id = 0; id < 5; id++) expect((await deploy(off.server, id)).result).toBeDefined();
  });
});
