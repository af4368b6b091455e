// #48 risk 9: a hung (not dead) Redis added its 1 s timeout to every rate-limited call. Decision: a
// 200 ms default, and while a count stays unanswered later calls do not wait for Redis; the rule
// stays the documented one (counted in this instance's memory: limits on, per instance).
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { Redis } from 'ioredis';
import { request, startRedis, StdioProcess, type TestRedis } from '@decorum-internal/test-support';

let redis: TestRedis;
let admin: Redis;
let served: StdioProcess;

beforeAll(async () => {
  redis = await startRedis();
  admin = new Redis(redis.url);
  served = StdioProcess.serve('packages/redis/test/fixtures/rate-limited-server.ts', ['--bus', redis.url], { DECORUM_LOG_LEVEL: 'info' });
  await served.waitForStderr('subscribed to decorum:live', 30_000);
}, 40_000);

afterAll(async () => {
  served?.kill();
  admin?.disconnect();
  await redis?.stop();
});

/** A `deploy` call over stdio: what it answered (its text or its error code), and how long it took. */
async function deploy(id: number): Promise<{ answer: string | number; ms: number }> {
  const started = performance.now();
  const answer = await served.request(request(id, 'tools/call', { name: 'deploy', arguments: {} }));
  return { answer: answer.result?.content[0].text ?? answer.error.code, ms: performance.now() - started };
}

test('mcp-serve --bus (stdio): while Redis hangs, rate-limited calls are counted in memory without waiting on each; after it, in Redis again', async () => {
  expect((await deploy(1)).answer).toBe('deployed');
  const keys = await admin.keys('decorum:live:rate:3/60000:*');
  expect(keys).toHaveLength(1);
  expect(await admin.get(keys[0])).toBe('1');

  // Hung, not dead: the process stops, its connections stay open and unanswered.
  const pid = Number(/process_id:(\d+)/.exec(await admin.info('server'))![1]);
  process.kill(pid, 'SIGSTOP');
  let during: Array<{ answer: string | number; ms: number }>;
  try {
    during = [await deploy(2), await deploy(3), await deploy(4), await deploy(5)];
    await served.waitForStderr(/Redis unavailable for rate limits \(no answer within 200 ms\)/);
  } finally {
    process.kill(pid, 'SIGCONT');
  }
  // The rule: counted in this instance's memory, with the same budget (3), so the fourth is refused.
  expect(during.map((call) => call.answer)).toEqual(['deployed', 'deployed', 'deployed', -31429]);
  // One call waited for the 200 ms timeout, the others did not wait (before: 1 s each, 4 s in all).
  expect(during.reduce((sum, call) => sum + call.ms, 0)).toBeLessThan(2000);

  // Redis answers the one count it was sent during the hang (call 2's; calls 3–5 did not ask it),
  // which ends the outage: counting is shared again.
  await served.waitForStderr('Redis answers again: rate limits are counted there, shared by the instances');
  expect(await admin.get(keys[0])).toBe('2');
  expect((await deploy(6)).answer).toBe('deployed');
  expect((await deploy(7)).answer).toBe(-31429);
  expect(await admin.get(keys[0])).toBe('4');
}, 40_000);
