// Hardening risk: an own `__proto__` key used to reach TypeBox handlers. Every message is parsed
// with Fastify's default rule (secure-json-parse, `__proto__` refused): -32700, nothing runs. The
// refusal carries the message's id when it can be read, so that the client's request ends (#47).
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startApp, type TestApp } from '../../packages/fastify/test/support/app.js';
import { initializeSession, legacyPost } from '../../packages/fastify/test/support/legacy-client.js';
import { StdioProcess } from '@decorum-internal/test-support';
import { Hardening } from './fixtures/hardening-server.js';
import { postRaw, rawToolCall } from './support/raw-call.js';

const POISONED = ['{"value":{"__proto__":{"isAdmin":true}}}', '{"value":{"\\u005f_proto__":{"isAdmin":true}}}'];
const REFUSAL = { code: -32700, message: 'Parse error: the message has a "__proto__" key, which is refused (prototype poisoning)' };
const refused = (id: number | string) => ({ jsonrpc: '2.0', id, error: REFUSAL });
// Ids of refused messages as written: a string, and an integer beyond 2^53 (answered with the same digits).
const IDS = ['"req-1"', '9007199254740993'];

describe('over HTTP', () => {
  let served: TestApp;
  beforeAll(async () => (served = await startApp({ servers: [Hardening] })));
  afterAll(() => served.close());

  test.each(POISONED)("%s is refused with 400 and -32700, answered with the request's id", async (args) => {
    const res = await postRaw(served.url, 'keys', rawToolCall('1', 'keys', args));
    expect([res.status, res.json]).toEqual([400, refused(1)]);
  });

  test.each(IDS)('the id %s of a refused message is answered as it was written', async (idJson) => {
    const res = await postRaw(served.url, 'keys', rawToolCall(idJson, 'keys', POISONED[0]));
    expect(res.status).toBe(400);
    expect(res.text).toContain(`"id":${idJson}`);
    expect(res.json.error).toEqual(REFUSAL);
  });

  test('a top-level "__proto__" key is refused too, with the id', async () => {
    const body = rawToolCall('3', 'keys', '{"value":{"a":1}}').replace('{"jsonrpc"', '{"__proto__":{"isAdmin":true},"jsonrpc"');
    const res = await postRaw(served.url, 'keys', body);
    expect([res.status, res.json]).toEqual([400, refused(3)]);
  });

  test('in a legacy (2025-11-25) session, the refusal carries the id too', async () => {
    const { id: session } = await initializeSession(served.url);
    const res = await legacyPost(
      served.url,
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'keys', arguments: { value: { a: 1 } } } },
      { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
    );
    expect(res.status).toBe(200);
    const poisoned = await postRawLegacy(
      served.url,
      session,
      `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"keys","arguments":${POISONED[1]}}}`,
    );
    expect([poisoned.status, poisoned.json]).toEqual([400, refused(5)]);
  });

  test('"constructor" keys are data, as in Fastify', async () => {
    const res = await postRaw(served.url, 'keys', rawToolCall('2', 'keys', '{"value":{"constructor":{"prototype":{}}}}'));
    expect(JSON.parse(res.json.result.content[0].text)).toEqual({ keys: ['constructor'], plainPrototype: true });
  });
});

test("over stdio (mcp-serve), the line is refused with -32700 and the request's id, and the server keeps serving", async () => {
  const proc = StdioProcess.serve('test/hardening/fixtures/hardening-server.ts');
  try {
    for (const args of POISONED) proc.send(rawToolCall('1', 'keys', args));
    proc.send(rawToolCall('"req-1"', 'keys', POISONED[0]));
    proc.send(rawToolCall('2', 'keys', '{"value":{"a":1}}'));
    const ok = await proc.waitFor((m) => m.id === 2);
    expect(JSON.parse(ok.result.content[0].text)).toEqual({ keys: ['a'], plainPrototype: true });
    expect(proc.messages.filter((m) => m.id !== 2)).toEqual([refused(1), refused(1), refused('req-1')]);
  } finally {
    proc.kill();
  }
});

test('over stdio, a poisoned message whose id cannot be read is still refused, without an id', async () => {
  const proc = StdioProcess.serve('test/hardening/fixtures/hardening-server.ts');
  try {
    proc.send(rawToolCall('{"__proto__":1}', 'keys', '{"value":{"a":1}}'));
    proc.send(rawToolCall('2', 'keys', '{"value":{"a":1}}'));
    await proc.waitFor((m) => m.id === 2);
    expect(proc.messages.filter((m) => m.id !== 2)).toEqual([{ jsonrpc: '2.0', error: REFUSAL }]);
  } finally {
    proc.kill();
  }
});

test('over stdio, lines that arrive in one write are screened together: the poisoned one among them is refused, the others run', async () => {
  // One write of a few hundred bytes reaches mcp-serve as one chunk, which its line splitter
  // screens for `__` / `\u` once for all its lines.
  const proc = StdioProcess.serve('test/hardening/fixtures/hardening-server.ts');
  try {
    proc.send([rawToolCall('3', 'keys', '{"value":{"a":1}}'), rawToolCall('4', 'keys', POISONED[1]), rawToolCall('5', 'keys', '{"value":{"b":2}}')].join('\n'));
    await proc.waitFor((m) => m.id === 5);
    await proc.waitFor((m) => m.id === 3);
    expect(proc.messages.filter((m) => m.id === 4)).toEqual([refused(4)]);
    expect(proc.messages.filter((m) => m.id !== 4).map((m) => JSON.parse(m.result.content[0].text).keys)).toEqual([['a'], ['b']]);
  } finally {
    proc.kill();
  }
});

/** POSTs a raw body in a legacy session (JSON.stringify cannot write an own `__proto__` key). */
function postRawLegacy(url: string, session: string, body: string) {
  return postRaw(url, 'keys', body, { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25', accept: 'application/json, text/event-stream' });
}
