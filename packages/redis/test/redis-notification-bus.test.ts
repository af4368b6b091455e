import 'reflect-metadata';
import { createServer, type DecorumServer, type LiveEvent } from '@decorum/core';
import { RedisNotificationBus, type RedisBusOptions } from '@decorum/redis';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { startRedis, type TestRedis, until } from '@decorum-internal/test-support';
import { Ops, Reports } from '@decorum-internal/test-support/fixtures';

/** A log that keeps its lines, to check what the bus says. */
function recordingLogger() {
  const lines: Array<{ level: number; msg: string }> = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines, warnings: () => lines.filter((l) => l.level === 40).map((l) => l.msg) };
}

let redis: TestRedis;
const open: RedisNotificationBus[] = [];

beforeAll(async () => {
  redis = await startRedis();
});

afterAll(async () => {
  await redis.stop();
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((bus) => bus.close()));
});

async function instance(options: Partial<RedisBusOptions> = {}) {
  const log = recordingLogger();
  const bus = new RedisNotificationBus({
    url: redis.url,
    logger: log.logger,
    retry: { minDelayMs: 20, maxDelayMs: 200 },
    channel: `test:${expect.getState().currentTestName}`,
    ...options,
  });
  open.push(bus);
  await bus.ready();
  const server = createServer([Ops], { notificationBus: bus, catalogue: [Reports], logger: log.logger });
  const events: LiveEvent[] = [];
  bus.subscribe({ wants: () => true, deliver: (e) => (events.push(e), true), onDrain: (l) => l() });
  return { bus, server, events, log };
}

const names = (server: DecorumServer) => [...server.registry.tools.keys()];

describe('RedisNotificationBus', () => {
  test('a change on A is applied on B, each instance publishing its own list-changed once', async () => {
    const a = await instance();
    const b = await instance();
    a.server.live.tools.disable('deploy');
    await until('B hears the change', () => b.events.length > 0);
    expect(names(b.server)).toEqual(['scale']);
    expect(a.events).toEqual([{ type: 'tools/list_changed' }]);
    expect(b.events).toEqual([{ type: 'tools/list_changed' }]);
    a.server.live.add(Reports);
    await until('B adds Reports', () => names(b.server).includes('report'));
    expect(names(b.server)).toEqual(names(a.server));
    await new Promise((r) => setTimeout(r, 100));
    expect(a.events).toHaveLength(2);
    expect(b.events).toHaveLength(2);
  });

  test('notifyResourceUpdated on A reaches B, and A delivers its own once', async () => {
    const a = await instance();
    const b = await instance();
    a.server.notifyResourceUpdated('notes://1');
    await until('B hears the update', () => b.events.length > 0);
    await new Promise((r) => setTimeout(r, 100));
    expect(b.events).toEqual([{ type: 'resources/updated', uri: 'notes://1' }]);
    expect(a.events).toEqual([{ type: 'resources/updated', uri: 'notes://1' }]);
  });

  test('hot reload (live.replace) stays local: B keeps its own classes and hears nothing of it', async () => {
    const a = await instance();
    const b = await instance();
    a.server.live.replace([Reports]);
    expect(names(a.server)).toEqual(['report']);
    expect(a.events).toEqual([{ type: 'tools/list_changed' }]);
    // A's messages reach B in order: once B hears this update, a replicated replace would have come first.
    a.server.notifyResourceUpdated('notes://after-replace');
    await until('B hears the update sent after the replace', () => b.events.length > 0);
    expect(b.events).toEqual([{ type: 'resources/updated', uri: 'notes://after-replace' }]);
    expect(names(b.server)).toEqual(['deploy', 'scale']);
  });

  test('Redis killed and restarted: what A published meanwhile reaches B, later changes too, and nothing is left queued', async () => {
    const a = await instance();
    const b = await instance();
    await redis.kill();
    await until('A sees Redis gone', () => !a.bus.stats().connected);
    a.server.live.tools.disable('deploy');
    a.server.notifyResourceUpdated('notes://during');
    await until('A has buffered both', () => a.bus.stats().buffered === 2);
    expect(a.events).toHaveLength(2); // local listeners never wait for Redis
    await redis.start();
    await until('B catches up', () => b.events.length === 2, 15_000);
    expect(b.events).toEqual([{ type: 'tools/list_changed' }, { type: 'resources/updated', uri: 'notes://during' }]);
    expect(names(b.server)).toEqual(['scale']);
    await until('both reconnected', () => a.bus.stats().connected && b.bus.stats().connected);
    a.server.live.tools.enable('deploy');
    await until('B hears the later change', () => b.events.length === 3);
    expect(names(b.server)).toEqual(['deploy', 'scale']);
    await new Promise((r) => setTimeout(r, 100));
    expect(b.events).toHaveLength(3);
    expect(a.events).toHaveLength(3);
    for (const { bus } of [a, b]) {
      expect(bus.stats()).toMatchObject({ connected: true, buffered: 0, dropped: 0, held: 0 });
      expect(bus.stats().knownInstances).toBeLessThanOrEqual(1);
      expect(bus.size).toBe(1);
    }
    expect(a.log.warnings().some((m) => /Redis unavailable/.test(m))).toBe(true);
    expect(a.log.lines.some((l) => /Redis back: sending 2 buffered notifications/.test(l.msg))).toBe(true);
  }, 30_000);

  test('an instance whose subscription dropped catches up from the replay list on what it missed, once each', async () => {
    const a = await instance();
    // B reconnects slowly, so A's messages certainly go out while B is not subscribed.
    const b = await instance({ retry: { minDelayMs: 400, maxDelayMs: 400 } });
    const raw = new Redis(redis.url);
    try {
      await raw.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
    } finally {
      raw.disconnect();
    }
    await until('B sees its subscription gone', () => !b.bus.stats().connected);
    a.server.live.tools.disable('deploy');
    a.server.notifyResourceUpdated('notes://missed');
    await until('B catches up', () => b.events.length === 2, 10_000);
    expect(b.events).toEqual([{ type: 'tools/list_changed' }, { type: 'resources/updated', uri: 'notes://missed' }]);
    expect(names(b.server)).toEqual(['scale']);
    expect(b.log.lines.some((l) => /applied 2 messages sent while this instance was disconnected/.test(l.msg))).toBe(true);
    a.server.live.tools.enable('deploy');
    await until('B hears the next one live', () => b.events.length === 3);
    await new Promise((r) => setTimeout(r, 100));
    expect(b.events).toHaveLength(3);
  });

  test('while Redis is away at most bufferLimit messages queue; the rest are dropped, logged and counted', async () => {
    const a = await instance({ bufferLimit: 2 });
    await redis.kill();
    try {
      await until('A sees Redis gone', () => !a.bus.stats().connected);
      for (let i = 0; i < 5; i++) a.server.notifyResourceUpdated(`notes://${i}`);
      // A write already on its way when the connection went comes back to the outbox too.
      await until('A has buffered 2 and dropped 3', () => a.bus.stats().buffered + a.bus.stats().dropped === 5);
      expect(a.bus.stats()).toMatchObject({ buffered: 2, dropped: 3 });
      expect(a.events).toHaveLength(5);
      expect(a.log.warnings().filter((m) => /dropping new ones/.test(m))).toHaveLength(1);
    } finally {
      await redis.start();
    }
    await until('A reconnects and flushes', () => a.bus.stats().connected && a.bus.stats().buffered === 0, 15_000);
    expect(a.log.lines.some((l) => /3 were dropped while it was away/.test(l.msg))).toBe(true);
  }, 30_000);

  test('a message on the channel that is not the bus’s own format is ignored with a warning', async () => {
    const a = await instance();
    const b = await instance();
    const raw = new Redis(redis.url);
    try {
      await raw.publish(`test:${expect.getState().currentTestName}`, '{"v":1,"o":"x","s":1,"c":{"op":"drop","kind":"tools","name":"deploy"}}');
      await raw.publish(`test:${expect.getState().currentTestName}`, 'not json');
    } finally {
      raw.disconnect();
    }
    a.server.live.tools.disable('deploy');
    await until('B hears the real change', () => b.events.length === 1);
    expect(b.log.warnings().filter((m) => /not a Decorum bus message/.test(m))).toHaveLength(2);
    expect(names(b.server)).toEqual(['scale']);
  });

  test('shutdown ends the local subscriptions and closes both connections', async () => {
    const a = await instance();
    const ended = a.bus.subscribe({ wants: () => true, deliver: () => true, onDrain: (l) => l() }).ended;
    a.bus.shutdown();
    expect(await ended).toEqual({ reason: 'shutdown' });
    await until('closed', () => !a.bus.stats().connected);
  });

  test('a URL that is not redis:// is a start-up error that says so', () => {
    expect(() => new RedisNotificationBus({ url: 'http://127.0.0.1:6379' })).toThrow(/must start with redis:\/\/ or rediss:\/\//);
  });
});
