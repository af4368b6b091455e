import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { ROOT, serveHttpProcess } from '../../packages/fastify/test/support/cli-process.js';
import { fixture, startNginx, type TestNginx, startRedis, type TestRedis } from '@decorum-internal/test-support';

const CLIENT = `${ROOT}test/interop/clients/sdk-cluster-client.mjs`;
const SUB = 'io.modelcontextprotocol/subscriptionId';

function runClient(url: string): Promise<any> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLIENT, url], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.on('error', reject);
    child.on('exit', () => {
      try {
        resolve(JSON.parse(out.trim().split('\n').pop() ?? ''));
      } catch {
        reject(new Error(`client printed no result; stdout: ${out}; stderr: ${err}`));
      }
    });
  });
}

/** docs/scaling.md's deployment recipe, for real: nginx round-robin over two instances on one Redis. */
describe('behind nginx (round-robin over two mcp-serve --http instances)', () => {
  let redis: TestRedis;
  let nginx: TestNginx;
  let instances: Array<Awaited<ReturnType<typeof serveHttpProcess>>> = [];

  beforeAll(async () => {
    redis = await startRedis();
    const env = { DECORUM_STATE_KEYS: randomBytes(32).toString('base64'), DECORUM_BUS_URL: redis.url };
    instances = await Promise.all([0, 1].map(() => serveHttpProcess([fixture('cluster-server.ts'), '--http', '--port', '0'], env)));
    nginx = await startNginx(instances.map((i) => new URL(i.url).host));
  }, 60_000); // two mcp-serve compiling .ts, redis and nginx: generous on a busy machine

  afterAll(async () => {
    await nginx?.stop();
    for (const instance of instances) instance.child.kill('SIGKILL');
    await redis?.stop();
  });

  test('the official client (pinned to 2026-07-28) drives list → call → elicit → listen', async () => {
    const outcome = await runClient(nginx.url);
    expect(outcome.failed).toBeUndefined();
    expect(outcome.protocolVersion).toBe('2026-07-28');
    expect(outcome.listed).toEqual(expect.arrayContaining(['deploy', 'set_deploy', 'welcome', 'whoami']));
    // Both instances answered.
    expect(new Set(outcome.pids)).toEqual(new Set(instances.map((i) => String(i.child.pid))));
    expect(outcome.asked).toEqual(['Welcome Ada?']);
    expect(outcome.greeted).toMatch(/^Hello, Ada \(from pid \d+\)$/);
    expect(outcome.honoured).toEqual({ toolsListChanged: true });
    expect(outcome.changes[0]).toEqual({ [SUB]: expect.anything() });
    // Whichever instance the re-lists reach, deploy is gone from both.
    expect(outcome.relisted).toHaveLength(2);
    for (const names of outcome.relisted) expect(names).not.toContain('deploy');
  }, 30_000);
});
