// Hardening risk: an own `__proto__` key used to reach TypeBox handlers. Every message is parsed
// with Fastify's default rule (secure-json-parse, `__proto__` refused): -32700, nothing runs.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startApp, type TestApp } from '../../packages/fastify/test/support/app.js';
import { StdioProcess } from '@decorum-internal/test-support';
import { Hardening } from './fixtures/hardening-server.js';
import { postRaw, rawToolCall } from './support/raw-call.js';

const POISONED = ['{"value":{"__proto__":{"isAdmin":true}}}', '{"value":{"\\u005f_proto__":{"isAdmin":true}}}'];
const refused = { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: the message has a "__proto__" key, which is refused (prototype poisoning)' } };

describe('over HTTP', () => {
  let served: TestApp;
  beforeAll(async () => (served = await startApp({ servers: [Hardening] })));
  afterAll(() => served.close());

  test.each(POISONED)('%s is refused with 400 and -32700', async (args) => {
    const res = await postRaw(served.url, 'keys', rawToolCall('1', 'keys', args));
    expect([res.status, res.json]).toEqual([400, refused]);
  });

  test('"constructor" keys are data, as in Fastify', async () => {
    const res = await postRaw(served.url, 'keys', rawToolCall('2', 'keys', '{"value":{"constructor":{"prototype":{}}}}'));
    expect(JSON.parse(res.json.result.content[0].text)).toEqual({ keys: ['constructor'], plainPrototype: true });
  });
});

test('over stdio (mcp-serve), the line is refused with -32700 and the server keeps serving', async () => {
  const proc = StdioProcess.serve('test/hardening/fixtures/hardening-server.ts');
  try {
    for (const args of POISONED) proc.send(rawToolCall('1', 'keys', args));
    proc.send(rawToolCall('2', 'keys', '{"value":{"a":1}}'));
    const ok = await proc.waitFor((m) => m.id === 2);
    expect(JSON.parse(ok.result.content[0].text)).toEqual({ keys: ['a'], plainPrototype: true });
    expect(proc.messages.filter((m) => m.id !== 2)).toEqual([refused, refused]);
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
    expect(proc.messages.filter((m) => m.id === undefined)).toEqual([refused]);
    expect(proc.messages.filter((m) => m.id !== undefined).map((m) => JSON.parse(m.result.content[0].text).keys)).toEqual([['a'], ['b']]);
  } finally {
    proc.kill();
  }
});
