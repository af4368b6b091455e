import { McpServer, Tool } from '@decorum/core';
import { DEFAULT_DIRECT_WRITE_BYTES } from '@decorum/fastify';
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
