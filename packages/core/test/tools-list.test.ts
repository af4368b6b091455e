import 'reflect-metadata';
import { IsString } from 'class-validator';
import { McpServer, Tool } from '@decorum/core';
import { harness } from './support/engine-harness.js';
import { request } from '@decorum-internal/test-support';

class Query {
  @IsString() q!: string;
}

@McpServer({ name: 'lister', version: '1.0.0' })
class Lister {
  @Tool({
    title: 'Search',
    description: 'Search the index',
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    icons: [{ src: 'data:image/png;base64,AAAA', mimeType: 'image/png', sizes: ['48x48'] }],
    _meta: { 'com.example/owner': 'search-team' },
  })
  search(args: Query) {
    return args.q;
  }

  @Tool({ input: null, ttlMs: 1000 }) b_tool() {
    return 'b';
  }

  @Tool({ input: null }) a_tool() {
    return 'a';
  }
}

class Private {
  @Tool({ input: null, cacheScope: 'private' }) mine() {
    return 'mine';
  }
}

describe('tools/list', () => {
  test('lists tools in declaration order with their metadata', async () => {
    const { call } = harness([Lister]);
    const { result } = (await call(request(1, 'tools/list')))!;
    expect(result.tools.map((t: { name: string }) => t.name)).toEqual(['search', 'b_tool', 'a_tool']);
    expect(result.tools[0]).toEqual({
      name: 'search',
      title: 'Search',
      description: 'Search the index',
      icons: [{ src: 'data:image/png;base64,AAAA', mimeType: 'image/png', sizes: ['48x48'] }],
      inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      _meta: { 'com.example/owner': 'search-team' },
    });
    expect(result.tools[2].inputSchema).toEqual({ type: 'object', properties: {}, additionalProperties: false });
    expect(result).not.toHaveProperty('nextCursor');
  });

  test('the same order every time', async () => {
    const { call } = harness([Lister]);
    const first = await call(request(1, 'tools/list'));
    const second = await call(request(2, 'tools/list'));
    expect(second?.result).toEqual(first?.result);
  });

  test('a page carries the smallest ttl of its tools; one private tool makes every page private', async () => {
    const { call } = harness([Lister, Private], { pageSize: 2 });
    const first = (await call(request(1, 'tools/list')))!.result;
    expect(first).toMatchObject({ ttlMs: 1000, cacheScope: 'private' });
    const second = (await call(request(2, 'tools/list', { cursor: first.nextCursor })))!.result;
    expect(second.tools.map((t: { name: string }) => t.name)).toEqual(['a_tool', 'mine']);
    expect(second).toMatchObject({ ttlMs: 300_000, cacheScope: 'private' });
  });

  test('server-wide defaults apply to lists', async () => {
    const { call } = harness([Lister], { cache: { lists: { ttlMs: 5, cacheScope: 'public' } } });
    expect((await call(request(1, 'tools/list')))!.result).toMatchObject({ ttlMs: 5, cacheScope: 'public' });
  });

  test('following nextCursor visits every tool once', async () => {
    const { call } = harness([Lister, Private], { pageSize: 1 });
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const { result } = (await call(request(names.length, 'tools/list', cursor ? { cursor } : {})))!;
      names.push(...result.tools.map((t: { name: string }) => t.name));
      cursor = result.nextCursor;
    } while (cursor);
    expect(names).toEqual(['search', 'b_tool', 'a_tool', 'mine']);
  });

  test.each(['!!garbage!!', '', Buffer.from('0000000000000000:1').toString('base64url'), 42])('cursor %p is -32602', async (cursor) => {
    const { call } = harness([Lister], { pageSize: 1 });
    const response = await call(request(1, 'tools/list', { cursor }));
    expect(response?.error.code).toBe(-32602);
    expect(response?.error.message).toMatch(/cursor/i);
  });

  test('a cursor from one server version does not page another', async () => {
    const { call: callA } = harness([Lister], { pageSize: 1 });
    const { call: callB } = harness([Lister, Private], { pageSize: 1 });
    const cursor = (await callA(request(1, 'tools/list')))!.result.nextCursor;
    expect((await callB(request(2, 'tools/list', { cursor })))?.error.code).toBe(-32602);
  });
});
