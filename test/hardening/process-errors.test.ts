// Hardening risk: a rejection or exception after a handler returned killed the process, losing
// every in-flight request. Policy (shutdown.ts on stdio, process-errors.ts on HTTP): an unhandled
// rejection is logged and serving goes on; an uncaught exception answers what is in flight with
// -32603, then the process exits 1.
import { expect, test } from '@jest/globals';
import { request, StdioProcess } from '@decorum-internal/test-support';
import { serveHttpProcess } from '../../packages/fastify/test/support/cli-process.js';
import { rpc } from '../../packages/fastify/test/support/http.js';
import { initializeSession, legacyPost, legacyToolCall, OpenStream } from '../../packages/fastify/test/support/legacy-client.js';

const call = (id: number, name: string, args?: object) => request(id, 'tools/call', args ? { name, arguments: args } : { name });

test('stdio: an unhandled rejection is logged and the server keeps serving', async () => {
  const proc = StdioProcess.serve('test/hardening/fixtures/hardening-server.ts');
  try {
    expect((await proc.request(call(1, 'stray_rejection'))).result.content[0].text).toBe('returned');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await proc.request(call(2, 'echo', { text: 'still serving' }))).result.content[0].text).toBe('still serving');
    expect(proc.child.exitCode).toBeNull();
    expect(await proc.waitForStderr('unhandled promise rejection; the server keeps serving')).toContain('a late rejection');
  } finally {
    proc.kill();
  }
});

test('stdio: an uncaught exception answers the running requests with -32603, then exits 1', async () => {
  const proc = StdioProcess.serve('test/hardening/fixtures/hardening-server.ts');
  try {
    expect((await proc.request(call(0, 'echo', { text: 'up' }))).result).toBeDefined();
    proc.send(call(1, 'sleep', { ms: 8000 }));
    expect((await proc.request(call(2, 'late_throw'))).result.content[0].text).toBe('returned');
    expect(await proc.exit()).toBe(1);
    expect(proc.messages.find((m) => m.id === 1)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32603, message: 'Internal error: the server failed (uncaught exception) and is exiting' },
    });
    await proc.waitForStderr('uncaught exception: answering in-flight requests, then exiting with status 1');
  } finally {
    proc.kill();
  }
});

test('HTTP (mcp-serve --http): an unhandled rejection is logged and serving goes on', async () => {
  const served = await serveHttpProcess(['test/hardening/fixtures/hardening-server.ts', '--http', '--port', '0']);
  try {
    expect((await rpc(served.url, 1, 'tools/call', { name: 'stray_rejection' })).json.result.content[0].text).toBe('returned');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await rpc(served.url, 2, 'tools/call', { name: 'echo', arguments: { text: 'still serving' } })).json.result.content[0].text).toBe('still serving');
    expect(served.stderr()).toContain('unhandled promise rejection; the server keeps serving');
  } finally {
    served.child.kill('SIGKILL');
  }
});

test('HTTP (mcp-serve --http): an uncaught exception answers the running requests with -32603, then exits 1', async () => {
  const served = await serveHttpProcess(['test/hardening/fixtures/hardening-server.ts', '--http', '--port', '0']);
  try {
    const running = rpc(served.url, 1, 'tools/call', { name: 'sleep', arguments: { ms: 8000 } }, { progressToken: 'p' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await rpc(served.url, 2, 'tools/call', { name: 'late_throw' })).json.result.content[0].text).toBe('returned');
    expect((await running).events).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal error: the server failed (uncaught exception) and is exiting' } },
    ]);
    expect(await served.exited).toBe(1);
  } finally {
    served.child.kill('SIGKILL');
  }
});

test('HTTP legacy session: an uncaught exception answers its running requests with -32603 (stream and JSON), then exits 1', async () => {
  const served = await serveHttpProcess(['test/hardening/fixtures/hardening-server.ts', '--http', '--port', '0']);
  try {
    const { id: session } = await initializeSession(served.url);
    const standalone = await OpenStream.get(served.url, session);
    const json = legacyPost(served.url, legacyToolCall(1, 'sleep', { ms: 8000, progress: true }, { progressToken: 'json' }), {
      'mcp-session-id': session,
      accept: 'application/json',
    });
    json.catch(() => undefined); // a failure is reported where it is awaited, not as a stray rejection
    await standalone.waitFor((event) => event.params?.progressToken === 'json');
    const sse = await OpenStream.post(served.url, session, legacyToolCall(2, 'sleep', { ms: 8000, progress: true }, { progressToken: 'sse' }));
    await sse.waitFor((event) => event.method === 'notifications/progress');
    expect((await legacyPost(served.url, legacyToolCall(3, 'late_throw'), { 'mcp-session-id': session })).json.result.content[0].text).toBe('returned');
    const crashed = (id: number) => ({
      jsonrpc: '2.0',
      id,
      error: { code: -32603, message: 'Internal error: the server failed (uncaught exception) and is exiting' },
    });
    expect((await json).json).toEqual(crashed(1));
    await sse.waitFor((event) => event.id === 2);
    expect(sse.events()).toEqual([expect.objectContaining({ method: 'notifications/progress' }), crashed(2)]);
    expect(await served.exited).toBe(1);
  } finally {
    served.child.kill('SIGKILL');
  }
});
