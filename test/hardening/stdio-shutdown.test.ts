// Hardening risk: shutdown dropped answers silently. After SIGTERM stdio answers new requests with
// an error instead of starting them, and a request still running when the grace period ends gets
// -32603 "server shutting down" — every request is answered; the shutdown is logged with its grace
// period (--shutdown-timeout, stdio too). Real mcp-serve child processes.
import { expect, test } from '@jest/globals';
import { request, StdioProcess } from '@decorum-internal/test-support';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const call = (id: number, name: string, args?: object) => request(id, 'tools/call', args ? { name, arguments: args } : { name });

test('after SIGTERM: new requests are refused with an error, running ones are answered at the end of the grace period, exit 0', async () => {
  const proc = StdioProcess.serve('test/hardening/fixtures/hardening-server.ts');
  try {
    expect((await proc.request(call(0, 'echo', { text: 'up' }))).result.content[0].text).toBe('up');
    proc.send(call(1, 'sleep', { ms: 8000 })); // outlives the 2 s grace period
    proc.send(call(2, 'sleep', { ms: 300 })); // finishes within it
    await sleep(200);
    proc.child.kill('SIGTERM');
    await sleep(200);
    proc.send(call(3, 'echo', { text: 'too late' }));
    expect(await proc.waitFor((m) => m.id === 3)).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32603, message: 'Internal error: the server is shutting down and takes no new requests' },
    });
    expect((await proc.waitFor((m) => m.id === 2)).result.content[0].text).toBe('slept 300');
    expect(await proc.waitFor((m) => m.id === 1, 6000)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32603, message: 'Internal error: server shutting down: the request did not finish within the shutdown grace period' },
    });
    expect(await proc.exit()).toBe(0);
    expect(proc.messages.filter((m) => m.id === 1)).toHaveLength(1);
  } finally {
    proc.kill();
  }
});

test('--shutdown-timeout sets the stdio grace period, and the shutdown says so on stderr', async () => {
  const proc = StdioProcess.serve('test/hardening/fixtures/hardening-server.ts', ['--shutdown-timeout', '300'], { DECORUM_LOG_LEVEL: 'info' });
  try {
    expect((await proc.request(call(0, 'echo', { text: 'up' }))).result.content[0].text).toBe('up');
    proc.send(call(1, 'sleep', { ms: 60_000 })); // far beyond the default 2 s grace period, too
    await sleep(100);
    proc.child.kill('SIGTERM');
    await proc.waitForStderr(/"signal":"SIGTERM".*"graceMs":300.*shutting down: new requests are refused/);
    // The log names the grace period in force (300 ms, not the 2 s default); the running call is answered at its end.
    expect((await proc.waitFor((m) => m.id === 1)).error.message).toMatch(/did not finish within the shutdown grace period/);
    expect(await proc.exit()).toBe(0);
  } finally {
    proc.kill();
  }
});
