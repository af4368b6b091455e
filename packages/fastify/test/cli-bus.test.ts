import { spawnSync } from 'node:child_process';
import { fixture, freePort } from '@decorum-internal/test-support';
import { rpc } from './support/http.js';
import { MCP_SERVE, ROOT, serveHttpProcess } from './support/cli-process.js';

const FIXTURE = fixture('cluster-server.ts');

/** `mcp-serve --bus` / `DECORUM_BUS_URL`: what is not a Redis URL is a one-line start-up error. */
describe('mcp-serve --bus', () => {
  test('a --bus that is not redis:// or rediss:// is refused with the expected form', () => {
    const run = spawnSync(process.execPath, [MCP_SERVE, FIXTURE, '--http', '--port', '0', '--bus', 'http://127.0.0.1:6379'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/option '--bus <url>' argument 'http:\/\/127\.0\.0\.1:6379' is invalid\. must be a redis:\/\/ or rediss:\/\/ URL/);
  });

  test('DECORUM_BUS_URL is read and checked the same way', () => {
    const run = spawnSync(process.execPath, [MCP_SERVE, FIXTURE, '--http', '--port', '0'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 20_000,
      env: { ...process.env, DECORUM_BUS_URL: 'localhost:6379' },
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/must be a redis:\/\/ or rediss:\/\/ URL/);
  });

  test('a module whose serverOptions.catalogue is not a list of decorated classes is a one-line error', () => {
    const run = spawnSync(process.execPath, [MCP_SERVE, 'packages/fastify/test/fixtures/bad-catalogue.ts', '--http', '--port', '0'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^mcp-serve: DECORUM_ERR_INVALID_CATALOGUE: catalogue: each entry must be a class with @Tool, @Resource or @Prompt members$/m);
  });

  test('with Redis unreachable it still serves (after a bounded wait), says so, and local changes still work', async () => {
    const nothing = await freePort();
    // Start-up, then the bus's 5 s bounded wait: more than the default start-up bound.
    const served = await serveHttpProcess([FIXTURE, '--http', '--port', '0', '--bus', `redis://127.0.0.1:${nothing}`], {}, 40_000);
    try {
      expect(served.stderr()).toMatch(/the notification bus is not connected after 5000 ms; serving anyway/);
      expect(served.stderr()).toMatch(/Redis unavailable/);
      expect((await rpc(served.url, 1, 'tools/call', { name: 'set_deploy', arguments: { enabled: false } })).json.result.content[0].text).toMatch(/disabled/);
      const names = (await rpc(served.url, 2, 'tools/list')).json.result.tools.map((t: { name: string }) => t.name);
      expect(names).not.toContain('deploy');
    } finally {
      served.child.kill('SIGKILL');
    }
  }, 60_000);
});
