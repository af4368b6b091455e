// Hardening risk: shutdown dropped answers silently over HTTP too. A request still running at the
// end of the grace period gets -32603 "server shutting down": as its JSON answer, or as the last
// event of its SSE stream — in both eras. Real `mcp-serve --http` child processes.
import { expect, test } from '@jest/globals';
import { serveHttpProcess } from '../../packages/fastify/test/support/cli-process.js';
import { rpc } from '../../packages/fastify/test/support/http.js';
import { initializeSession, legacyPost, legacyToolCall, OpenStream } from '../../packages/fastify/test/support/legacy-client.js';

const cutOff = (id: number) => ({
  jsonrpc: '2.0',
  id,
  error: { code: -32603, message: 'Internal error: server shutting down: the request did not finish within the shutdown grace period' },
});

test('requests running when the grace period ends are answered with -32603, on JSON and SSE, then mcp-serve exits 0', async () => {
  const served = await serveHttpProcess(['test/hardening/fixtures/hardening-server.ts', '--http', '--port', '0', '--shutdown-timeout', '500']);
  try {
    const json = rpc(served.url, 1, 'tools/call', { name: 'sleep', arguments: { ms: 8000 } });
    const sse = rpc(served.url, 2, 'tools/call', { name: 'sleep', arguments: { ms: 8000 } }, { progressToken: 'p' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    served.child.kill('SIGTERM');
    const [jsonAnswer, sseAnswer] = await Promise.all([json, sse]);
    expect([jsonAnswer.status, jsonAnswer.json]).toEqual([200, cutOff(1)]);
    expect(sseAnswer.headers['content-type']).toBe('text/event-stream');
    expect(sseAnswer.events).toEqual([cutOff(2)]);
    expect(await served.exited).toBe(0);
  } finally {
    served.child.kill('SIGKILL');
  }
});

test('legacy session: requests running when the grace period ends are answered with -32603, on JSON and SSE; the GET stream ends at once', async () => {
  const served = await serveHttpProcess(['test/hardening/fixtures/hardening-server.ts', '--http', '--port', '0', '--shutdown-timeout', '500']);
  try {
    const { id: session } = await initializeSession(served.url);
    // A JSON-only POST sends its progress on the standalone GET stream: there it shows the call began.
    const standalone = await OpenStream.get(served.url, session);
    const json = legacyPost(served.url, legacyToolCall(1, 'sleep', { ms: 8000, progress: true }, { progressToken: 'json' }), {
      'mcp-session-id': session,
      accept: 'application/json',
    });
    json.catch(() => undefined); // a failure is reported where it is awaited, not as a stray rejection
    await standalone.waitFor((event) => event.params?.progressToken === 'json');
    const sse = await OpenStream.post(served.url, session, legacyToolCall(2, 'sleep', { ms: 8000, progress: true }, { progressToken: 'sse' }));
    await sse.waitFor((event) => event.method === 'notifications/progress');
    served.child.kill('SIGTERM');
    // Shutdown ends the standalone stream at once; the running requests keep their grace period.
    await standalone.waitForEnd();
    const jsonAnswer = await json;
    expect([jsonAnswer.status, jsonAnswer.json]).toEqual([200, cutOff(1)]);
    await sse.waitFor((event) => event.id === 2);
    expect(sse.events()).toEqual([expect.objectContaining({ method: 'notifications/progress' }), cutOff(2)]);
    expect(await served.exited).toBe(0);
  } finally {
    served.child.kill('SIGKILL');
  }
});
