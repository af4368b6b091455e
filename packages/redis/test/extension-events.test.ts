import 'reflect-metadata';
import { createServer, defineExtension, type ExtensionHost } from '@decorum/core';
import { RedisNotificationBus } from '@decorum/redis';
import { pino } from 'pino';
import { request, startRedis, type TestRedis, until } from '@decorum-internal/test-support';
import { Ops } from '@decorum-internal/test-support/fixtures';

const SUB = 'io.modelcontextprotocol/subscriptionId';
let redis: TestRedis;
const open: RedisNotificationBus[] = [];

beforeAll(async () => {
  redis = await startRedis();
});

afterAll(async () => {
  await Promise.all(open.splice(0).map((bus) => bus.close()));
  await redis.stop();
});

/** One instance: a server on its own RedisNotificationBus, with an extension whose host it keeps. */
async function instance(channel: string) {
  const bus = new RedisNotificationBus({ url: redis.url, logger: pino({ level: 'silent' }), retry: { minDelayMs: 20, maxDelayMs: 200 }, channel });
  open.push(bus);
  await bus.ready();
  let host: ExtensionHost | undefined;
  const jobs = defineExtension({
    id: 'com.example/jobs',
    install: (h) => void (host = h),
    listen: { field: 'jobIds', method: 'notifications/com.example/job', grant: (requested) => requested as string[] },
  });
  const server = createServer([Ops], { notificationBus: bus, logger: pino({ level: 'silent' }), extensions: [jobs] });
  return { server, host: host! };
}

test("host.publish on one instance reaches another instance's listen granted that key", async () => {
  const a = await instance('test:extension-events');
  const b = await instance('test:extension-events');
  const seen: Array<Record<string, any>> = [];
  const controller = new AbortController();
  const listening = b.server.engine.handle(request('L', 'subscriptions/listen', { notifications: { jobIds: ['job-1'] } }), {
    signal: controller.signal,
    notify: (n) => seen.push(JSON.parse(JSON.stringify(n))),
  });
  await until('B acknowledges', () => seen.length > 0);
  expect(seen[0]?.params.notifications).toEqual({ jobIds: ['job-1'] });
  a.host.publish('notifications/com.example/job', 'job-2', { id: 'job-2' });
  a.host.publish('notifications/com.example/job', 'job-1', { id: 'job-1', status: 'done' });
  await until('B delivers job-1', () => seen.length > 1);
  expect(seen.slice(1)).toEqual([{ jsonrpc: '2.0', method: 'notifications/com.example/job', params: { id: 'job-1', status: 'done', _meta: { [SUB]: 'L' } } }]);
  controller.abort();
  await listening;
  a.server.closeSubscriptions();
  b.server.closeSubscriptions();
});
