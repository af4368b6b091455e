import { connect } from 'node:net';
import { McpServer, Tool } from '@decorum/core';
import { meta } from '@decorum-internal/test-support';
import { DEFAULT_DIRECT_WRITE_BYTES } from '../src/options.js';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { initializeSession, legacyPost } from './support/legacy-client.js';
import { postRaw, rpc } from './support/http.js';
import { LogCapture, startApp, type TestApp } from './support/app.js';

const SEARCH = Type.Object({ query: Type.String({ description: 'What to look for in the records' }), limit: Type.Optional(Type.Integer()) });

/** A server with `n` tools (decorators applied by hand), so that one list page holds many KB. */
function manyTools(n: number): new () => object {
  class ManyTools {}
  for (let i = 0; i < n; i++) {
    const name = `search_${i}`;
    const descriptor: PropertyDescriptor = { value: () => 'none', writable: true, configurable: true };
    Object.defineProperty(ManyTools.prototype, name, descriptor);
    Tool({ description: `Searches the records of collection number ${i} and returns what matches`, input: SEARCH })(ManyTools.prototype, name, descriptor);
  }
  McpServer({ name: `many-${n}`, version: '1.0.0' })(ManyTools);
  return ManyTools;
}

/** Sets a header in `onRequest` and records every body an `onSend` hook sees. */
function hooks(seen: unknown[]) {
  return (app: FastifyInstance) => {
    app.addHook('onRequest', async (_request, reply) => {
      reply.header('x-request-hook', 'kept');
    });
    app.addHook('onSend', async (_request, _reply, payload) => {
      seen.push(payload);
      return payload;
    });
  };
}

const TOOLS = 300;

/**
 * A list answer with a large pre-serialized page is written to the socket in pieces (no copy of
 * the page per request): the bytes, headers and log line are those of any other answer; only
 * `onSend` hooks do not see it, unless `directWriteBytes` says otherwise.
 */
describe('large list pages written straight to the socket', () => {
  const logs = new LogCapture();
  const seen: unknown[] = [];
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ servers: [manyTools(TOOLS)], pageSize: 1000 }, hooks(seen), logs);
  });
  afterAll(() => t.close());

  test('tools/list answers every tool with a Content-Length that matches its bytes, and keeps hook headers', async () => {
    const res = await rpc(t.url, 'page-1', 'tools/list');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['x-request-hook']).toBe('kept');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
    expect(Number(res.headers['content-length'])).toBeGreaterThan(64 * 1024);
    expect(DEFAULT_DIRECT_WRITE_BYTES).toBeLessThan(64 * 1024);
    expect(res.json).toMatchObject({ jsonrpc: '2.0', id: 'page-1', result: { resultType: 'complete' } });
    expect(res.json.result.tools).toHaveLength(TOOLS);
    expect(res.json.result.tools[TOOLS - 1]).toMatchObject({ name: `search_${TOOLS - 1}`, inputSchema: { type: 'object' } });
  });

  test('the envelope is made per request: each id is echoed exactly, a large one digit for digit', async () => {
    const [a, b] = await Promise.all([rpc(t.url, 7, 'tools/list'), rpc(t.url, 'x"y', 'tools/list')]);
    expect([a.json.id, b.json.id]).toEqual([7, 'x"y']);
    const big = await postRaw(
      t.url,
      '{"jsonrpc":"2.0","id":9007199254740993,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}',
      {
        'mcp-method': 'tools/list',
      },
    );
    expect(big.status).toBe(200);
    expect(big.text.startsWith('{"jsonrpc":"2.0","id":9007199254740993,"result":{')).toBe(true);
    expect(JSON.parse(big.text).result.tools).toHaveLength(TOOLS);
  });

  test('onSend hooks see other answers but not the page; the request is logged as usual', async () => {
    seen.length = 0;
    logs.lines.length = 0;
    await rpc(t.url, 'page-2', 'tools/list');
    await rpc(t.url, 'call-1', 'tools/call', { name: 'search_1', arguments: { query: 'q' } });
    await new Promise((r) => setTimeout(r, 20));
    expect(seen).toHaveLength(1);
    expect(String(seen[0])).toContain('"call-1"');
    const summaries = logs.lines.filter((l) => l.msg?.startsWith('MCP request'));
    expect(summaries).toEqual(expect.arrayContaining([expect.objectContaining({ rpcId: 'page-2', mcpMethod: 'tools/list', statusCode: 200, stream: 'json' })]));
  });

  test('the legacy era (a 2025-11-25 session on the same endpoint) gets the page the same way', async () => {
    const session = await initializeSession(t.url);
    const res = await legacyPost(t.url, { jsonrpc: '2.0', id: 'legacy-list', method: 'tools/list' }, { 'mcp-session-id': session.id });
    expect(res.status).toBe(200);
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
    expect(res.headers['x-request-hook']).toBe('kept');
    expect(res.json.id).toBe('legacy-list');
    expect(res.json.result.tools).toHaveLength(TOOLS);
  });
});

describe('directWriteBytes', () => {
  test('Infinity: every answer goes through reply.send, so onSend hooks see the page', async () => {
    const seen: unknown[] = [];
    const t = await startApp({ servers: [manyTools(TOOLS)], pageSize: 1000, directWriteBytes: Infinity }, hooks(seen));
    try {
      const res = await rpc(t.url, 'via-send', 'tools/list');
      expect(res.json.result.tools).toHaveLength(TOOLS);
      expect(seen).toHaveLength(1);
      expect(String(seen[0])).toContain('"via-send"');
    } finally {
      await t.close();
    }
  });

  test('by default a page under the threshold goes through reply.send', async () => {
    const seen: unknown[] = [];
    const t = await startApp({ servers: [manyTools(2)] }, hooks(seen));
    try {
      const res = await rpc(t.url, 'small-default', 'tools/list');
      expect(Buffer.byteLength(res.text)).toBeLessThan(DEFAULT_DIRECT_WRITE_BYTES);
      expect(res.json.result.tools).toHaveLength(2);
      expect(seen).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  test('0: a small page is written directly too, with the same bytes', async () => {
    const seen: unknown[] = [];
    const t = await startApp({ servers: [manyTools(2)], directWriteBytes: 0 }, hooks(seen));
    try {
      const res = await rpc(t.url, 'small', 'tools/list');
      expect(res.status).toBe(200);
      expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
      expect(res.json.result.tools.map((tool: { name: string }) => tool.name)).toEqual(['search_0', 'search_1']);
      expect(seen).toEqual([]);
    } finally {
      await t.close();
    }
  });

  test.each([-1, 1.5, Number.NaN])('%p is refused at start-up', async (directWriteBytes) => {
    await expect(startApp({ servers: [manyTools(1)], directWriteBytes })).rejects.toThrow(/directWriteBytes must be an integer ≥ 0 or Infinity/);
  });
});

/** A server whose tool answers the text it is given, or that many copies of a character. */
@McpServer({ name: 'texts', version: '1.0.0' })
class Texts {
  @Tool({ description: 'Echoes the text', input: Type.Object({ text: Type.String() }) })
  echo({ text }: { text: string }) {
    return text;
  }

  @Tool({ description: 'Answers `count` copies of `char`', input: Type.Object({ char: Type.String(), count: Type.Integer() }) })
  repeat({ char, count }: { char: string; count: number }) {
    return char.repeat(count);
  }
}

const LONG = 'L'.repeat(64 * 1024);

/** That `text` is `count` copies of `char`, said in a line when it is not (where it first differs). */
function expectRepeat(text: string, char: string, count: number): void {
  if (text === char.repeat(count)) return;
  let differs: number | undefined;
  for (let i = 0; i < text.length && differs === undefined; i++) if (text[i] !== char) differs = i;
  expect({ length: text.length, firstOther: differs === undefined ? 'none' : `${JSON.stringify(text[differs])} at ${differs}` }).toEqual({
    length: count,
    firstOther: 'none',
  });
}

/** The raw bytes of an HTTP/1.1 tools/call of `repeat` (`count` copies of `char`), for a socket of the test's own. */
function rawRepeatRequest(port: string, id: string, char: string, count: number): string {
  const json = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'repeat', arguments: { char, count }, _meta: meta() } });
  return (
    `POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\n` +
    `mcp-protocol-version: 2026-07-28\r\nmcp-method: tools/call\r\nmcp-name: repeat\r\ncontent-length: ${Buffer.byteLength(json)}\r\n\r\n${json}`
  );
}

/**
 * A result with a long ASCII text is written to the socket in pieces (its text never joined into
 * one message string, copied into a reused buffer): the bytes, headers and log line are those of
 * any other answer; `onSend` hooks do not see it.
 */
describe('answers with a long text written straight to the socket', () => {
  const logs = new LogCapture();
  const seen: unknown[] = [];
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ servers: [Texts] }, hooks(seen), logs);
  });
  afterAll(() => t.close());

  test('a 64 KiB echo comes back whole, with a Content-Length that matches its bytes and the hooks’ headers', async () => {
    seen.length = 0;
    logs.lines.length = 0;
    const res = await rpc(t.url, 'echo-1', 'tools/call', { name: 'echo', arguments: { text: LONG } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['x-request-hook']).toBe('kept');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
    expect(res.json).toMatchObject({ jsonrpc: '2.0', id: 'echo-1', result: { resultType: 'complete', content: [{ type: 'text', text: LONG }] } });
    await new Promise((r) => setTimeout(r, 20));
    expect(seen).toEqual([]);
    const summaries = logs.lines.filter((l) => l.msg?.startsWith('MCP request'));
    expect(summaries).toEqual(expect.arrayContaining([expect.objectContaining({ rpcId: 'echo-1', mcpName: 'echo', statusCode: 200, stream: 'json' })]));
  });

  test('texts that are short, not ASCII or escaped by JSON go through reply.send, the same as before', async () => {
    seen.length = 0;
    const texts = ['short', 'é'.repeat(20_000), `${'q'.repeat(20_000)}"quoted"`];
    for (const [i, text] of texts.entries()) {
      const res = await rpc(t.url, `send-${i}`, 'tools/call', { name: 'echo', arguments: { text } });
      expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
      expect(res.json.result.content).toEqual([{ type: 'text', text }]);
    }
    await new Promise((r) => setTimeout(r, 20));
    expect(seen).toHaveLength(texts.length);
  });

  // The buffers are used again once a response has finished: answers in flight together must each
  // keep their own bytes, of every size class, the pooled bound (1 MiB) and beyond.
  test('64 concurrent long answers, of many sizes, each come back exactly', async () => {
    const sizes = [8192, 8193, 20_000, 65_536, 65_537, 300_000, 1024 * 1024, 1024 * 1024 + 1];
    const calls = Array.from({ length: 64 }, (_, i) => ({ char: String.fromCharCode(0x41 + (i % 26)), count: sizes[i % sizes.length]! }));
    for (let round = 0; round < 2; round++) {
      const answers = await Promise.all(calls.map((args, i) => rpc(t.url, `many-${round}-${i}`, 'tools/call', { name: 'repeat', arguments: args })));
      answers.forEach((res, i) => {
        expect(res.json.id).toBe(`many-${round}-${i}`);
        expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
        expectRepeat(res.json.result.content[0].text, calls[i]!.char, calls[i]!.count);
      });
    }
  });

  // 1 MiB: in a reused buffer; 8 MiB: past their bound, written as a string.
  test.each([1024 * 1024, 8 * 1024 * 1024])('a client gone before its long answer (%p characters) was written costs the others nothing', async (count) => {
    const { port } = new URL(t.url);
    for (let i = 0; i < 3; i++) {
      await new Promise<void>((resolve) => {
        const socket = connect(Number(port), '127.0.0.1', () => {
          socket.write(rawRepeatRequest(port, 'gone', 'G', count));
        });
        // Gone at the first bytes of the answer, while most of it is still to be written.
        socket.once('data', () => {
          socket.destroy();
          resolve();
        });
      });
      const res = await rpc(t.url, `after-${i}`, 'tools/call', { name: 'repeat', arguments: { char: 'H', count: 70_000 } });
      expectRepeat(res.json.result.content[0].text, 'H', 70_000);
    }
  });

  // A reused buffer must not be taken again before its bytes have left. Here the held answer waits
  // in Node's queue behind an 8 MiB one on a connection that reads nothing (the kernel takes ~4 MB),
  // while other clients get answers of its size, in buffers of its size class.
  test('a long answer held behind a slow reader keeps its bytes while others are answered', async () => {
    const { port } = new URL(t.url);
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), '127.0.0.1');
    socket.pause();
    socket.write(rawRepeatRequest(port, 'first', 'F', 8 * 1024 * 1024) + rawRepeatRequest(port, 'held', 'P', 1024 * 1024));
    await new Promise((r) => setTimeout(r, 300));
    const others = await Promise.all(
      Array.from({ length: 4 }, (_, i) => rpc(t.url, `other-${i}`, 'tools/call', { name: 'repeat', arguments: { char: 'Q', count: 1024 * 1024 } })),
    );
    for (const res of others) expectRepeat(res.json.result.content[0].text, 'Q', 1024 * 1024);
    const received = new Promise<Buffer>((resolve) => {
      socket.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        const all = Buffer.concat(chunks);
        if (all.includes('"id":"held"') && all.subarray(-3).toString() === '}}}') resolve(all);
      });
    });
    socket.resume();
    const text = (await received).toString('latin1');
    socket.destroy();
    const held = text.slice(text.indexOf('{"jsonrpc":"2.0","id":"held"'));
    expectRepeat(JSON.parse(held).result.content[0].text, 'P', 1024 * 1024);
  });

  test('the legacy era gets a long text the same way', async () => {
    const session = await initializeSession(t.url);
    const res = await legacyPost(
      t.url,
      { jsonrpc: '2.0', id: 'legacy-echo', method: 'tools/call', params: { name: 'echo', arguments: { text: LONG } } },
      { 'mcp-session-id': session.id },
    );
    expect(res.status).toBe(200);
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
    expect(res.json.result.content).toEqual([{ type: 'text', text: LONG }]);
  });

  test('directWriteBytes: Infinity sends a long text through reply.send', async () => {
    const hooked: unknown[] = [];
    const viaSend = await startApp({ servers: [Texts], directWriteBytes: Infinity }, hooks(hooked));
    try {
      const res = await rpc(viaSend.url, 'via-send', 'tools/call', { name: 'echo', arguments: { text: LONG } });
      expect(res.json.result.content).toEqual([{ type: 'text', text: LONG }]);
      expect(hooked).toHaveLength(1);
    } finally {
      await viaSend.close();
    }
  });
});
