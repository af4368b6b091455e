import { spawnSync } from 'node:child_process';
import { rpc } from './support/http.js';
import { MCP_SERVE, ROOT, serveHttpProcess } from './support/cli-process.js';

async function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`not within ${ms} ms`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** `mcp-serve MODULE --http`: the real binary over real sockets. */
describe('mcp-serve --http', () => {
  test('serves the weather example on 127.0.0.1 by default, prints its URL, and exits cleanly on SIGTERM', async () => {
    const served = await serveHttpProcess(['examples/weather/dist/weather.js', '--http', '--port', '0']);
    try {
      expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const list = await rpc(served.url, 1, 'tools/list');
      expect(list.json.result.tools.map((t: { name: string }) => t.name)).toEqual(['weather_current', 'weather_forecast', 'weather_alerts_toggle']);
      const call = await rpc(served.url, 2, 'tools/call', { name: 'weather_current', arguments: { location: 'Tokyo' } });
      expect(call.json.result.content[0].text).toContain('Sunny');
      served.child.kill('SIGTERM');
      expect(await within(served.exited, 5000)).toBe(0);
    } finally {
      served.child.kill('SIGKILL');
    }
  });

  test('--path and --host are honoured', async () => {
    const served = await serveHttpProcess(['examples/weather/dist/weather.js', '--http', '--port', '0', '--host', '127.0.0.1', '--path', '/rpc/mcp']);
    try {
      expect(served.url).toMatch(/\/rpc\/mcp$/);
      expect((await rpc(served.url, 1, 'server/discover')).status).toBe(200);
    } finally {
      served.child.kill('SIGKILL');
    }
  });

  test('SIGINT lets an in-flight request finish, then exits', async () => {
    const served = await serveHttpProcess([`packages/fastify/test/fixtures/http-server.ts`, '--http', '--port', '0']);
    try {
      const pending = rpc(served.url, 1, 'tools/call', { name: 'wait', arguments: { ms: 400 } });
      await new Promise((r) => setTimeout(r, 100));
      served.child.kill('SIGINT');
      const res = await pending;
      expect(res.json.result.content[0].text).toBe('waited 400 ms');
      expect(await within(served.exited, 5000)).toBe(0);
    } finally {
      served.child.kill('SIGKILL');
    }
  });

  test('past --shutdown-timeout, remaining requests are answered with -32603 and the process exits', async () => {
    const served = await serveHttpProcess([`packages/fastify/test/fixtures/http-server.ts`, '--http', '--port', '0', '--shutdown-timeout', '200']);
    try {
      const pending = rpc(served.url, 1, 'tools/call', { name: 'wait', arguments: { ms: 30_000 } }).then(
        (res) => res.json?.error?.message,
        () => 'cut',
      );
      await new Promise((r) => setTimeout(r, 100));
      const started = Date.now();
      served.child.kill('SIGTERM');
      expect(await within(served.exited, 5000)).toBe(0);
      expect(Date.now() - started).toBeLessThan(3000);
      expect(await pending).toBe('Internal error: server shutting down: the request did not finish within the shutdown grace period');
    } finally {
      served.child.kill('SIGKILL');
    }
  });

  test('a second signal during the grace period exits at once with status 1', async () => {
    const served = await serveHttpProcess([`packages/fastify/test/fixtures/http-server.ts`, '--http', '--port', '0', '--shutdown-timeout', '20000'], {
      DECORUM_LOG_LEVEL: 'info',
    });
    try {
      const pending = rpc(served.url, 1, 'tools/call', { name: 'wait', arguments: { ms: 30_000 } }).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 100));
      served.child.kill('SIGTERM');
      await served.waitForStderr('shutting down');
      served.child.kill('SIGTERM');
      expect(await within(served.exited, 5000)).toBe(1);
      await pending;
    } finally {
      served.child.kill('SIGKILL');
    }
  });

  test('a bad --path is a one-line start-up error', () => {
    const run = spawnSync(process.execPath, [MCP_SERVE, 'examples/weather/dist/weather.js', '--http', '--port', '0', '--path', 'mcp'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^mcp-serve: DECORUM_ERR_INVALID_ADDRESS: .*path must start with "\/"/m);
  });
});
