import { Redis } from 'ioredis';
import { rpc, type HttpResult } from '../../packages/fastify/test/support/http.js';
import { serveHttpProcess, type HttpProcess } from '../../packages/fastify/test/support/cli-process.js';
import { startRedis, type TestRedis } from '@decorum-internal/test-support';

const FIXTURE = 'test/fixtures/shared-limit-server.ts';
type Instance = HttpProcess;

const callTool = (instance: Instance, id: string, name: string) => rpc(instance.url, id, 'tools/call', { name });
const answered = (res: HttpResult) => res.status === 200 && res.json.result?.content[0].text;

function expectRefused(res: HttpResult, tool: string) {
  expect(res.status).toBe(429);
  expect(res.json.error).toMatchObject({
    code: -31429,
    message: expect.stringMatching(new RegExp(`^Rate limit exceeded: 4 calls per 60000 ms of tools/call "${tool}" per caller; retry in \\d+ ms$`)),
    data: { retryAfterMs: expect.any(Number), limit: 4, windowMs: 60_000 },
  });
  expect(res.json.error.data.retryAfterMs).toBeGreaterThan(0);
  expect(res.json.error.data.retryAfterMs).toBeLessThanOrEqual(60_000);
  expect(Number(res.headers['retry-after'])).toBe(Math.ceil(res.json.error.data.retryAfterMs / 1000));
}

/**
 * Two `mcp-serve --http` processes on one local Redis (`--bus`, `DECORUM_BUS_URL`), a budget of 4
 * calls a minute per caller and tool (the fixture's `serverOptions.rateLimit`, naming no store):
 * the bus's Redis store counts each caller once, wherever its calls land.
 */
describe('rate limits shared by two instances on one Redis bus', () => {
  let redis: TestRedis;
  let a: Instance;
  let b: Instance;

  beforeAll(async () => {
    redis = await startRedis();
    [a, b] = await Promise.all([
      serveHttpProcess([FIXTURE, '--http', '--port', '0', '--bus', redis.url]),
      serveHttpProcess([FIXTURE, '--http', '--port', '0'], { DECORUM_BUS_URL: redis.url }),
    ]);
  }, 30_000);

  afterAll(async () => {
    for (const instance of [a, b]) instance?.child.kill('SIGKILL');
    await redis?.stop();
  });

  test('calls split over both instances share one budget: past it each instance refuses with 429, -31429 and Retry-After', async () => {
    // Two calls on each: within the budget of either instance alone, the whole budget together.
    for (const [instance, id] of [
      [a, 'p1'],
      [b, 'p2'],
      [a, 'p3'],
      [b, 'p4'],
    ] as const)
      expect(answered(await callTool(instance, id, 'ping'))).toBe('pong');
    expectRefused(await callTool(a, 'p5', 'ping'), 'ping');
    expectRefused(await callTool(b, 'p6', 'ping'), 'ping');
    // The count lives in Redis, under the bus channel's prefix and the rule, and ends with its window.
    const client = new Redis(redis.url);
    try {
      const key = 'decorum:live:rate:4/60000:peer:127.0.0.1|tool:ping';
      expect(await client.get(key)).toBe('6');
      expect(await client.pttl(key)).toBeGreaterThan(0);
    } finally {
      client.disconnect();
    }
    // Another tool has a budget of its own; lists are not counted.
    expect(answered(await callTool(b, 'e1', 'echo'))).toBe('echo');
    expect((await rpc(a.url, 'l1', 'tools/list')).status).toBe(200);
  });

  test('Redis unavailable: each instance counts in its own memory under the same rule (limits stay on), says so, and keeps serving', async () => {
    await redis.kill();
    // A budget per instance while Redis is away: 4 calls of echo on A, then 4 more on B.
    for (const instance of [a, b]) {
      for (let i = 0; i < 4; i++) expect(answered(await callTool(instance, `o${i}`, 'echo'))).toBe('echo');
      expectRefused(await callTool(instance, 'o-over', 'echo'), 'echo');
    }
    for (const instance of [a, b])
      await instance.waitForStderr(/Redis unavailable for rate limits \(.+\): counting them in this instance's memory until it answers again/);
    expect((await rpc(b.url, 'l2', 'tools/list')).status).toBe(200);
  });
});
