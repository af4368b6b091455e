// Hardening #48 bug 1: an answer to a legacy session's elicitation with `"error": null` (alone, or
// beside a valid result) killed the stdio server (exit 1); over HTTP it was a 500, the tool call
// never ended and the session never expired. Now such an answer is refused (-32600; HTTP 400), the
// ask it names fails with a clear error that ends the tool call, and the session keeps serving.
import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import { LogCapture, startApp, type TestApp } from '../../packages/fastify/test/support/app.js';
import { initializeSession, legacyPost, legacyToolCall, OpenStream } from '../../packages/fastify/test/support/legacy-client.js';
import { legacyCall, openLegacySession, StdioProcess } from '@decorum-internal/test-support';
import { Asking } from './fixtures/asking-server.js';

/** Malformed answers to the ask `id`, and the reason the refusal gives. */
const MALFORMED: Array<[string, (id: string) => object, RegExp]> = [
  ['"error": null', (id) => ({ jsonrpc: '2.0', id, error: null }), /"error" must be an object with an integer "code" and a string "message"/],
  [
    'a valid result beside "error": null',
    (id) => ({ jsonrpc: '2.0', id, result: { action: 'accept', content: { name: 'Ada' } }, error: null }),
    /it has both "result" and "error"/,
  ],
  ['an error without a code', (id) => ({ jsonrpc: '2.0', id, error: { message: 'no' } }), /"error" must be an object with an integer "code"/],
  ['a result that is not an object', (id) => ({ jsonrpc: '2.0', id, result: 'accept' }), /"result" must be an object/],
];

/** Sessions end after this long idle (a session with a running call never does). */
const IDLE_MS = 3000;

const isAsk = (m: Record<string, any>) => m.method === 'elicitation/create' && m.id !== undefined;

describe('over stdio (mcp-serve, a child process)', () => {
  let server: StdioProcess;
  afterEach(async () => {
    server.child.stdin.end();
    await server.exit();
  });

  // One process for every case: the session that refused one malformed answer serves the next.
  test('each malformed answer is refused with -32600, its tool call ends with the reason, the process serves on', async () => {
    server = StdioProcess.serve('test/hardening/fixtures/asking-server.ts');
    await openLegacySession(server, { elicitation: {} });
    const asked = new Set<string>();
    const nextAsk = async (timeoutMs?: number) => {
      const ask = await server.waitFor((m) => isAsk(m) && !asked.has(m.id), timeoutMs);
      asked.add(ask.id);
      return ask;
    };
    for (const [index, [name, answer, reason]] of MALFORMED.entries()) {
      const id = index + 1;
      const refusals = server.messages.filter((m) => m.id === undefined).length;
      server.send(legacyCall(id, 'greet'));
      // The first call compiles what it needs: on a busy machine that takes more than the usual 5 s.
      const ask = await nextAsk(15_000);
      server.send(answer(ask.id));

      const call = await server.waitFor((m) => m.id === id);
      expect([name, call.error?.code]).toEqual([name, -32603]);
      expect(call.error.message).toMatch(/^The client answered elicitation\/create with a malformed response: /);
      expect(call.error.message).toMatch(reason);
      const refusal = server.messages.filter((m) => m.id === undefined)[refusals];
      expect(refusal?.error.code).toBe(-32600);
      expect(refusal.error.message).toMatch(reason);
    }

    // The session is healthy: the next ask, answered properly, completes its call.
    server.send(legacyCall('good', 'greet'));
    const again = await nextAsk();
    server.send({ jsonrpc: '2.0', id: again.id, result: { action: 'accept', content: { name: 'Bo' } } });
    expect((await server.waitFor((m) => m.id === 'good')).result.content[0].text).toBe('Hello, Bo');
    expect(server.child.exitCode).toBeNull();
    expect(server.stderr).not.toMatch(/"stack"/);
  });
});

describe('over HTTP (a real server on 127.0.0.1)', () => {
  let served: TestApp;
  const logs = new LogCapture();
  // Asks keep their default timeout (5 minutes): a tool call that does not end fails the test's waits.
  beforeAll(async () => (served = await startApp({ servers: [Asking], legacySessions: { idleTimeoutMs: IDLE_MS } }, undefined, logs)));
  afterAll(() => served.close());

  test.each(MALFORMED)('%s is a 400 with -32600, the tool call ends with the reason, the session serves on', async (_name, answer, reason) => {
    const { id: session } = await initializeSession(served.url);
    const call = await OpenStream.post(served.url, session, legacyToolCall(1, 'greet'));
    const ask = await call.waitFor(isAsk);
    const before = logs.lines.length;

    const refused = await legacyPost(served.url, answer(ask.id), { 'mcp-session-id': session });
    expect(refused.status).toBe(400);
    expect(refused.json.error.code).toBe(-32600);
    expect(refused.json.error.message).toMatch(reason);
    const ended = await call.waitFor((event) => event.id === 1);
    expect(ended.error.code).toBe(-32603);
    expect(ended.error.message).toMatch(/^The client answered elicitation\/create with a malformed response: /);
    await call.waitForEnd();
    expect(logs.lines.slice(before).filter((line) => line.level >= 50)).toEqual([]);

    // The session is healthy (its running call was counted out, so it can expire again).
    const next = await OpenStream.post(served.url, session, legacyToolCall(2, 'greet'));
    const again = await next.waitFor(isAsk);
    const accepted = await legacyPost(
      served.url,
      { jsonrpc: '2.0', id: again.id, result: { action: 'accept', content: { name: 'Bo' } } },
      { 'mcp-session-id': session },
    );
    expect(accepted.status).toBe(202);
    expect((await next.waitFor((event) => event.id === 2)).result.content[0].text).toBe('Hello, Bo');
  });

  test('the call a malformed answer ended no longer holds its session: idle, it expires (404)', async () => {
    const { id: session } = await initializeSession(served.url);
    const call = await OpenStream.post(served.url, session, legacyToolCall(3, 'greet'));
    const ask = await call.waitFor(isAsk);
    expect((await legacyPost(served.url, { jsonrpc: '2.0', id: ask.id, error: null }, { 'mcp-session-id': session })).status).toBe(400);
    await call.waitForEnd();
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS + 300));
    expect((await legacyPost(served.url, { jsonrpc: '2.0', id: 4, method: 'ping' }, { 'mcp-session-id': session })).status).toBe(404);
  });
});
