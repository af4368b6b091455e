import 'reflect-metadata';
import { Type } from 'typebox';
import { McpServer, Tool, type ToolContext } from '@decorum/core';
import { request } from '@decorum-internal/test-support';
import { RecordingOutput, serveInProcess } from './support/in-process-stdio.js';

@McpServer({ name: 'stdio-unit', version: '1.0.0' })
class Tools {
  @Tool({ input: Type.Object({ a: Type.Integer(), b: Type.Integer() }) })
  add({ a, b }: { a: number; b: number }) {
    return String(a + b);
  }

  @Tool({ input: Type.Object({ steps: Type.Integer() }) })
  async count({ steps }: { steps: number }, ctx: ToolContext) {
    for (let i = 1; i <= steps; i++) {
      ctx.progress(i, steps);
      if (i % 2 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    return `counted ${steps}`;
  }

  @Tool({ input: null, description: 'Runs until its request is cancelled' })
  hang(_args: unknown, ctx: ToolContext) {
    return new Promise<string>((resolve) => ctx.signal.addEventListener('abort', () => resolve('cancelled')));
  }

  @Tool({ input: null, description: 'A result JSON cannot carry' })
  bigint() {
    return { content: [{ type: 'text', text: 'big' }], _meta: { big: 10n } };
  }
}

const add = (id: string | number, a = 20, b = 22) => JSON.stringify(request(id, 'tools/call', { name: 'add', arguments: { a, b } }));
const count = (id: string | number, steps: number) =>
  JSON.stringify(request(id, 'tools/call', { name: 'count', arguments: { steps } }, { progressToken: `p-${id}` }));
type Message = Record<string, any>;
const isAnswer = (m: Message) => 'id' in m;
const answers = (messages: Message[]) => messages.filter(isAnswer);

/**
 * Every id answered exactly once ("7" and 7 are two requests), and each answer written after all
 * of its request's progress notifications, which count 1, 2, … `steps(id)` in order.
 */
function expectEachAnsweredOnce(messages: Message[], ids: Array<string | number>, steps: (id: string | number) => number = () => 0) {
  const answered = answers(messages).map((m) => `${typeof m.id}:${m.id}`);
  expect(answered.sort()).toEqual(ids.map((id) => `${typeof id}:${id}`).sort());
  messages.forEach((answer, at) => {
    if (!isAnswer(answer)) return;
    const progress = messages.flatMap((m, i) => (m.params?.progressToken === `p-${answer.id}` ? [{ value: m.params.progress, before: i < at }] : []));
    expect(progress).toEqual(Array.from({ length: steps(answer.id) }, (_, k) => ({ value: k + 1, before: true })));
  });
}

describe('serveStdio', () => {
  test('a result JSON cannot carry is answered with -32603, and the server keeps serving', async () => {
    const { input, until, served } = serveInProcess([Tools]);
    input.write(`${JSON.stringify(request('big', 'tools/call', { name: 'bigint' }))}\n${add('after')}\n`);
    const messages = await until((m) => m.some((x) => x.id === 'after'));
    expect(messages.find((m) => m.id === 'big')).toEqual({ jsonrpc: '2.0', id: 'big', error: { code: -32603, message: 'Internal error' } });
    expect(messages.find((m) => m.id === 'after')?.result.content[0].text).toBe('42');
    input.end();
    await served.closed;
  });

  test('many requests in one chunk are each answered once, ids intact, in one write', async () => {
    const { input, output, until } = serveInProcess([Tools]);
    const ids = Array.from({ length: 100 }, (_, i) => [i, String(i)]).flat();
    input.write(ids.map((id) => `${add(id, typeof id === 'number' ? id : 1000, 1)}\n`).join(''));
    const messages = await until((m) => m.length >= ids.length);
    expectEachAnsweredOnce(messages, ids);
    for (const m of messages) expect(m.result.content[0].text).toBe(String(typeof m.id === 'number' ? m.id + 1 : 1001));
    expect(output.chunks).toHaveLength(1);
  });

  test('with one request at a time, 2,000 lines of a synchronous tool in one chunk are each answered once, in order', async () => {
    // Held lines run as their predecessors settle, which a synchronous answer does a burst later.
    const { input, until } = serveInProcess([Tools], { maxConcurrentRequests: 1 });
    const ids = Array.from({ length: 2000 }, (_, i) => i);
    input.write(ids.map((id) => `${add(id, id, 1)}\n`).join(''));
    const messages = await until((m) => m.length >= ids.length);
    expect(messages.map((m) => m.id)).toEqual(ids);
    for (const m of messages) expect(m.result.content[0].text).toBe(String(m.id + 1));
  });

  test('at the end of the grace period, lines still held behind the gate are each answered as not started', async () => {
    // stdin ends with three requests read: one runs (the bound is one at a time), two wait behind the gate.
    const { input, output, served } = serveInProcess([Tools], { maxConcurrentRequests: 1, shutdownGraceMs: 50 });
    const hang = (id: number) => JSON.stringify(request(id, 'tools/call', { name: 'hang', arguments: {} }));
    input.end([1, 2, 3].map((id) => `${hang(id)}\n`).join(''));
    await served.closed;
    expect(answers(output.messages).map((m) => [m.id, m.error?.message])).toEqual([
      [1, expect.stringContaining('did not finish within the shutdown grace period')],
      [2, expect.stringContaining('takes no new requests')],
      [3, expect.stringContaining('takes no new requests')],
    ]);
  });

  test("a notifications/cancelled later in the same chunk stops a synchronous request's answer", async () => {
    const { input, output, until } = serveInProcess([Tools]);
    const cancel = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'gone' } });
    input.write(`${add('gone')}\n${cancel}\n${add('kept')}\n`);
    await until((m) => m.some((x) => x.id === 'kept'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(output.messages.map((m) => m.id)).toEqual(['kept']);
  });

  test("a request's progress notifications are written before its response, in order", async () => {
    const { input, until } = serveInProcess([Tools]);
    const ids = [1, 2, 3, 4, 5, 'a', 'b'];
    input.write(ids.map((id) => `${count(id, 7)}\n${add(`add-${id}`)}\n`).join(''));
    const messages = await until((m) => answers(m).length >= ids.length * 2);
    expectEachAnsweredOnce(messages, [...ids, ...ids.map((id) => `add-${id}`)], (id) => (ids.includes(id) ? 7 : 0));
  });

  test('a slow stdout that asks to wait loses nothing and keeps each request in order', async () => {
    const output = new RecordingOutput(1, 256);
    const { input, until } = serveInProcess([Tools], { output });
    const ids: number[] = [];
    for (let chunk = 0; chunk < 4; chunk++) {
      const lines: string[] = [];
      for (let i = 0; i < 50; i++) {
        const id = chunk * 50 + i;
        ids.push(id);
        lines.push(id % 3 === 0 ? count(id, 4) : add(id));
      }
      input.write(`${lines.join('\n')}\n`);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const messages = await until((m) => answers(m).length >= ids.length);
    expectEachAnsweredOnce(messages, ids, (id) => (Number(id) % 3 === 0 ? 4 : 0));
    expect(output.chunks.length).toBeLessThan(messages.length);
  });

  test('stdin ending with requests in flight: every answer is written before closed resolves', async () => {
    const output = new RecordingOutput(1, 64);
    const { input, served } = serveInProcess([Tools], { output });
    const ids = Array.from({ length: 30 }, (_, i) => i);
    input.end(ids.map((id) => `${count(id, 6)}\n`).join(''));
    await served.closed;
    expectEachAnsweredOnce(output.messages, ids, () => 6);
  });

  test('a line over the limit gets -32600 and the requests around it in the same chunk are served', async () => {
    const { input, until } = serveInProcess([Tools], { maxLineBytes: 1024 });
    input.write(
      `${add('before')}\n${JSON.stringify(request('huge', 'tools/call', { name: 'add', arguments: { a: 1, b: 2, pad: 'x'.repeat(2000) } }))}\n${add('after')}\n`,
    );
    const messages = await until((m) => m.length >= 3);
    expect(messages.filter((m) => m.result).map((m) => [m.id, m.result.content[0].text])).toEqual([
      ['before', '42'],
      ['after', '42'],
    ]);
    const refused = messages.filter((m) => m.error);
    expect(refused).toEqual([{ jsonrpc: '2.0', error: { code: -32600, message: expect.stringContaining('1024-byte line limit') } }]);
  });
});
