import 'reflect-metadata';
import { jest } from '@jest/globals';
import {
  DEFAULT_RATE_LIMIT,
  InProcessNotificationBus,
  MemoryRateLimitStore,
  Prompt,
  Tool,
  type AuthInfo,
  type DecorumServer,
  type RateLimitStore,
} from '@decorum/core';
import { encodeMessage } from '@decorum/core/transport';
import { harness } from './support/engine-harness.js';
import { request } from '@decorum-internal/test-support';

let ran = 0;
class Limited {
  @Tool({ input: null }) ping() {
    ran++;
    return 'pong';
  }
  @Tool({ input: null }) other() {
    return 'other';
  }
  @Prompt({ input: null }) hello() {
    return 'hi';
  }
}

function caller(server: DecorumServer, channel: { auth?: AuthInfo; peer?: string } = {}) {
  return async (message: unknown) => JSON.parse(encodeMessage((await server.engine.handle(message, { notify: () => {}, ...channel }))!)) as Record<string, any>;
}
const user = (principal: string): AuthInfo => ({ principal, scopes: [], claims: {} });

describe('rate limiting', () => {
  test('on by default, generous: the default budget is 6,000,000 calls a minute per caller and tool', async () => {
    expect(DEFAULT_RATE_LIMIT).toEqual({ points: 6_000_000, durationMs: 60_000, perTool: true });
    const { server } = harness([Limited]);
    const call = caller(server);
    const answers = await Promise.all(Array.from({ length: 500 }, (_, i) => call(request(i, 'tools/call', { name: 'ping' }))));
    expect(answers.every((a) => a.result?.content[0].text === 'pong')).toBe(true);
  });

  test('on by default: every tools/call is counted in memory against the default rule', async () => {
    const consume = jest.spyOn(MemoryRateLimitStore.prototype, 'consume');
    try {
      const { server } = harness([Limited]);
      await caller(server, { peer: '192.0.2.7' })(request(1, 'tools/call', { name: 'ping' }));
      expect(consume).toHaveBeenCalledWith('peer:192.0.2.7|tool:ping', { points: 6_000_000, durationMs: 60_000 });
    } finally {
      consume.mockRestore();
    }
  });

  test('at its bound under 200 concurrent calls: each call over the limit gets -31429 with retryAfterMs, and serving goes on', async () => {
    ran = 0;
    const { server } = harness([Limited], { rateLimit: { points: 50, durationMs: 60_000 } });
    const call = caller(server);
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => call(request(i, 'tools/call', { name: 'ping' }))));
    const ok = answers.filter((a) => a.result);
    const refused = answers.filter((a) => a.error);
    expect(ok).toHaveLength(50);
    expect(ran).toBe(50);
    expect(refused).toHaveLength(150);
    for (const answer of refused) {
      expect(answer.error.code).toBe(-31429);
      expect(answer.error.message).toMatch(/^Rate limit exceeded: 50 calls per 60000 ms of tools\/call "ping" per caller; retry in \d+ ms$/);
      expect(answer.error.data).toEqual({ retryAfterMs: expect.any(Number), limit: 50, windowMs: 60_000 });
      expect(answer.error.data.retryAfterMs).toBeGreaterThan(50_000);
      expect(answer.error.data.retryAfterMs).toBeLessThanOrEqual(60_000);
    }
    // Another tool has its own budget; lists are not counted.
    expect((await call(request('o', 'tools/call', { name: 'other' }))).result.content[0].text).toBe('other');
    expect((await call(request('l', 'tools/list'))).result.tools).toHaveLength(2);
  });

  test('per principal: the token subject, else the peer address', async () => {
    const { server } = harness([Limited], { rateLimit: { points: 1, durationMs: 60_000 } });
    const ping = (id: number) => request(id, 'tools/call', { name: 'ping' });
    expect((await caller(server, { auth: user('alice') })(ping(1))).result).toBeDefined();
    expect((await caller(server, { auth: user('alice'), peer: '10.0.0.9' })(ping(2))).error.code).toBe(-31429);
    expect((await caller(server, { auth: user('bob'), peer: '10.0.0.9' })(ping(3))).result).toBeDefined();
    expect((await caller(server, { peer: '10.0.0.1' })(ping(4))).result).toBeDefined();
    expect((await caller(server, { peer: '10.0.0.1' })(ping(5))).error.code).toBe(-31429);
    expect((await caller(server, { peer: '10.0.0.2' })(ping(6))).result).toBeDefined();
  });

  test('perTool: false shares one budget across tools and prompts', async () => {
    const { server } = harness([Limited], { rateLimit: { points: 2, durationMs: 60_000, perTool: false } });
    const call = caller(server);
    expect((await call(request(1, 'tools/call', { name: 'ping' }))).result).toBeDefined();
    expect((await call(request(2, 'prompts/get', { name: 'hello' }))).result).toBeDefined();
    const refused = await call(request(3, 'tools/call', { name: 'other' }));
    expect(refused.error).toMatchObject({
      code: -31429,
      message: expect.stringMatching(/^Rate limit exceeded: 2 calls per 60000 ms per caller; retry in \d+ ms$/),
    });
  });

  test('the window ends: calls are allowed again after retryAfterMs', async () => {
    const { server } = harness([Limited], { rateLimit: { points: 1, durationMs: 200 } });
    const call = caller(server);
    await call(request(1, 'tools/call', { name: 'ping' }));
    const refused = await call(request(2, 'tools/call', { name: 'ping' }));
    expect(refused.error.code).toBe(-31429);
    await new Promise((resolve) => setTimeout(resolve, refused.error.data.retryAfterMs + 20));
    expect((await call(request(3, 'tools/call', { name: 'ping' }))).result.content[0].text).toBe('pong');
  });

  test('rateLimit: false turns it off', async () => {
    const { server } = harness([Limited], { rateLimit: false });
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => caller(server)(request(i, 'tools/call', { name: 'ping' }))));
    expect(answers.every((a) => a.result)).toBe(true);
  });

  test('a pluggable store is asked with the key and rule; a store that fails is a generic -32603', async () => {
    const keys: string[] = [];
    const store: RateLimitStore = {
      consume(key, rule) {
        keys.push(`${key} ${rule.points}/${rule.durationMs}`);
        if (keys.length > 1) throw new Error('redis down');
        return { allowed: true, retryAfterMs: 0 };
      },
    };
    const { server } = harness([Limited], { rateLimit: { points: 10, durationMs: 1000, store } });
    expect((await caller(server, { auth: user('alice') })(request(1, 'tools/call', { name: 'ping' }))).result).toBeDefined();
    expect((await caller(server, { peer: '::1' })(request(2, 'tools/call', { name: 'ping' }))).error).toEqual({ code: -32603, message: 'Internal error' });
    expect(keys).toEqual(['sub:alice|tool:ping 10/1000', 'peer:::1|tool:ping 10/1000']);
  });

  test("a notification bus's rateLimitStore is where counts go when rateLimit names no store; rateLimit.store wins", async () => {
    const asked: string[] = [];
    const shared: RateLimitStore = {
      consume: (key) => {
        asked.push(key);
        return { allowed: false, retryAfterMs: 1234 };
      },
    };
    const notificationBus = Object.assign(new InProcessNotificationBus(), { rateLimitStore: shared });
    const { server } = harness([Limited], { notificationBus, rateLimit: { points: 5, durationMs: 60_000 } });
    const refused = await caller(server, { peer: '10.0.0.3' })(request(1, 'tools/call', { name: 'ping' }));
    expect(refused.error).toMatchObject({ code: -31429, data: { retryAfterMs: 1234, limit: 5 } });
    expect(asked).toEqual(['peer:10.0.0.3|tool:ping']);
    // The default rule counts there too; an own store, or false, leaves the bus's alone.
    await caller(harness([Limited], { notificationBus }).server)(request(2, 'tools/call', { name: 'ping' }));
    expect(asked).toHaveLength(2);
    const own = harness([Limited], { notificationBus, rateLimit: { store: new MemoryRateLimitStore() } }).server;
    expect((await caller(own)(request(3, 'tools/call', { name: 'ping' }))).result).toBeDefined();
    expect((await caller(harness([Limited], { notificationBus, rateLimit: false }).server)(request(4, 'tools/call', { name: 'ping' }))).result).toBeDefined();
    expect(asked).toHaveLength(2);
  });

  test('the memory store counts per key and rule', async () => {
    const store = new MemoryRateLimitStore();
    const rule = { points: 2, durationMs: 10_000 };
    expect(store.consume('a', rule).allowed).toBe(true);
    expect(store.consume('a', rule)).toEqual({ allowed: true, retryAfterMs: 0 });
    const refused = store.consume('a', rule);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterMs).toBeGreaterThan(9_000);
    expect(store.consume('b', rule).allowed).toBe(true);
  });

  test('bad options are start-up errors that say what to change', () => {
    expect(() => harness([Limited], { rateLimit: { points: 0 } })).toThrow('rateLimit.points must be a positive integer (got 0)');
    expect(() => harness([Limited], { rateLimit: { durationMs: 1.5 } })).toThrow('rateLimit.durationMs must be a positive integer (got 1.5)');
    expect(() => harness([Limited], { rateLimit: 'fast' as never })).toThrow('rateLimit must be an object or false');
  });
});
