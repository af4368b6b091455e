// Hardening item 8: bytes are taken strictly — invalid UTF-8 is a -32700 (it was decoded lossily),
// a charset other than UTF-8 and a Content-Encoding other than identity are refused with 415, and on
// stdio a malformed notification (`params: null`) is never answered.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startApp, type TestApp } from '../../packages/fastify/test/support/app.js';
import { StdioProcess } from '@decorum-internal/test-support';
import { Hardening } from './fixtures/hardening-server.js';
import { postRaw, rawToolCall } from './support/raw-call.js';

/** A tools/call of echo whose text holds the byte 0xFF (never valid in UTF-8). */
const invalidUtf8 = (id: number) => {
  const [head, tail] = rawToolCall(String(id), 'echo', '{"text":"aXb"}').split('X');
  return Buffer.concat([Buffer.from(head), Buffer.from([0xff]), Buffer.from(tail)]);
};
const notUtf8 = { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: the body is not valid UTF-8' } };

describe('over HTTP', () => {
  let served: TestApp;
  beforeAll(async () => (served = await startApp({ servers: [Hardening] })));
  afterAll(() => served.close());

  test('a body that is not valid UTF-8 is a 400 with -32700', async () => {
    const res = await postRaw(served.url, 'echo', invalidUtf8(1));
    expect([res.status, res.json]).toEqual([400, notUtf8]);
  });

  test('invalid bytes beside other non-ASCII text are a -32700 too; a U+FFFD the client sent is text', async () => {
    const [head, tail] = rawToolCall('5', 'echo', '{"text":"é€X😀"}').split('X');
    const res = await postRaw(served.url, 'echo', Buffer.concat([Buffer.from(head), Buffer.from([0xc3, 0x28]), Buffer.from(tail)]));
    expect([res.status, res.json]).toEqual([400, notUtf8]);
    const sent = await postRaw(served.url, 'echo', Buffer.from(rawToolCall('6', 'echo', '{"text":"a\uFFFDb é"}')));
    expect(sent.json.result.content[0].text).toBe('a\uFFFDb é');
  });

  test.each(['application/json; charset=utf-16', 'application/json;charset="ISO-8859-1"'])('Content-Type %s is a 415', async (type) => {
    const res = await postRaw(served.url, 'echo', rawToolCall('2', 'echo', '{"text":"a"}'), { 'content-type': type });
    expect(res.status).toBe(415);
    expect(res.json.error.message).toMatch(/^Unsupported Media Type: JSON-RPC bodies are UTF-8 \(got charset=/);
  });

  test.each(['gzip', 'br, identity'])('Content-Encoding %s is a 415 that says identity is accepted', async (coding) => {
    const res = await postRaw(served.url, 'echo', rawToolCall('3', 'echo', '{"text":"a"}'), { 'content-encoding': coding });
    expect(res.status).toBe(415);
    expect(res.headers['accept-encoding']).toBe('identity');
  });

  test.each(['application/json; charset=utf-8', 'application/json;charset=UTF-8'])('%s with Content-Encoding identity is served', async (type) => {
    const res = await postRaw(served.url, 'echo', rawToolCall('4', 'echo', '{"text":"é"}'), { 'content-type': type, 'content-encoding': 'identity' });
    expect(res.json.result.content[0].text).toBe('é');
  });
});

describe('over stdio (mcp-serve)', () => {
  let proc: StdioProcess;
  beforeAll(() => {
    proc = StdioProcess.serve('test/hardening/fixtures/hardening-server.ts');
  });
  afterAll(() => proc.kill());

  test('a line that is not valid UTF-8 is a -32700; the lines around it are served', async () => {
    proc.child.stdin.write(
      Buffer.concat([
        Buffer.from(`${rawToolCall('1', 'echo', '{"text":"before"}')}\n`),
        invalidUtf8(2),
        Buffer.from(`\n${rawToolCall('3', 'echo', '{"text":"after"}')}\n`),
      ]),
    );
    await proc.waitFor((m) => m.id === 3);
    expect(proc.messages.find((m) => m.id === 1)?.result.content[0].text).toBe('before');
    expect(proc.messages.filter((m) => !('id' in m))).toEqual([
      { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: the line is not valid UTF-8' } },
    ]);
  });

  test('a notification with params: null gets no answer (it is logged)', async () => {
    const before = proc.messages.length;
    proc.send('{"jsonrpc":"2.0","method":"notifications/cancelled","params":null}');
    proc.send(rawToolCall('5', 'echo', '{"text":"next"}'));
    await proc.waitFor((m) => m.id === 5);
    expect(proc.messages.slice(before).map((m) => m.id)).toEqual([5]);
    await proc.waitForStderr('ignored a malformed notification');
  });
});
