import { McpServer, Resource, Tool, type ToolContext } from '@decorum/core';
import { Type } from 'typebox';
import { legacySession } from './support/legacy-session.js';

@McpServer({ name: 'legacy-core', version: '1.0.0' })
class Shapes {
  @Tool({ input: null, output: Type.Number() })
  answer(): number {
    return 42;
  }

  @Tool({ input: null, output: Type.Object({ n: Type.Number() }) })
  boxed() {
    return { n: 1 };
  }

  @Tool({ input: null })
  async remember(_args: unknown, ctx: ToolContext) {
    let runs = 0;
    const first = await ctx.once('n', () => ++runs);
    const roots = await ctx.roots({ optional: true });
    return `once ran ${first} time(s); roots ${roots === undefined ? 'not declared' : roots.length}`;
  }

  @Tool({ input: null })
  async ask(_args: unknown, ctx: ToolContext) {
    return (await ctx.elicit({ message: 'ok?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } })).action;
  }

  @Resource({ uri: 'mem://a' })
  a() {
    return 'A';
  }
}

function session(capabilities: object = {}) {
  const s = legacySession([Shapes]);
  return { ...s, init: () => s.init('2025-11-25', capabilities) };
}

describe('legacy sessions (core)', () => {
  test('requests before initialize are refused clearly; ping is allowed', async () => {
    const s = session();
    expect((await s.request('tools/list')).error).toEqual({ code: -32600, message: 'Invalid Request: tools/list before initialize; send initialize first' });
    expect((await s.request('ping')).result).toEqual({});
  });

  test('initialize checks its params', async () => {
    const s = session();
    expect((await s.request('initialize', { capabilities: {}, clientInfo: { name: 'x' } })).error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('protocolVersion'),
    });
    expect((await s.init()).result.protocolVersion).toBe('2025-11-25');
  });

  test('a non-object outputSchema is left out of the legacy listing, and its structuredContent of the result', async () => {
    const s = session();
    await s.init();
    const tools = (await s.request('tools/list')).result.tools as Array<Record<string, any>>;
    expect(tools.find((t) => t.name === 'answer')).not.toHaveProperty('outputSchema');
    expect(tools.find((t) => t.name === 'boxed')!.outputSchema).toMatchObject({ type: 'object' });
    const answer = (await s.request('tools/call', { name: 'answer', arguments: {} })).result;
    expect(answer).toEqual({ content: [{ type: 'text', text: '42' }], isError: false });
    expect((await s.request('tools/call', { name: 'boxed', arguments: {} })).result).toEqual({
      content: [{ type: 'text', text: '{"n":1}' }],
      structuredContent: { n: 1 },
      isError: false,
    });
  });

  test('ctx.once runs once; an optional ask the client did not declare is undefined', async () => {
    const s = session();
    await s.init();
    expect((await s.request('tools/call', { name: 'remember', arguments: {} })).result.content[0].text).toBe('once ran 1 time(s); roots not declared');
  });

  test('an ask the client did not declare at initialize is -32602 (no modern -32021 on legacy)', async () => {
    const s = session();
    await s.init();
    const refused = await s.request('tools/call', { name: 'ask', arguments: {} });
    expect(refused.error).toMatchObject({ code: -32602, message: expect.stringContaining('which the client at initialize did not declare') });
  });

  test('modern-only methods are -32601; resource not found is -32002; setLevel checks its level', async () => {
    const s = session();
    await s.init();
    expect((await s.request('subscriptions/listen', {})).error.code).toBe(-32601);
    expect((await s.request('resources/read', { uri: 'mem://none' })).error).toMatchObject({ code: -32002, data: { uri: 'mem://none' } });
    expect((await s.request('logging/setLevel', { level: 'loud' })).error.code).toBe(-32602);
  });

  test('resource updates reach the session only for subscribed URIs; list changes always', async () => {
    const s = session();
    await s.init();
    s.server.notifyResourceUpdated('mem://a');
    expect(s.sent).toEqual([]);
    await s.request('resources/subscribe', { uri: 'mem://a' });
    s.server.notifyResourceUpdated('mem://a');
    s.server.live.tools.disable('answer');
    expect(s.sent).toEqual([
      { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'mem://a' } },
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: {} },
    ]);
    await s.request('resources/unsubscribe', { uri: 'mem://a' });
    s.legacy.close();
    s.server.notifyResourceUpdated('mem://a');
    expect(s.sent).toHaveLength(2);
  });
});

@McpServer({ name: 'legacy-pages', version: '1.0.0' })
class Shelves {
  @Resource({ uri: 'mem://shelf/1' }) one() {
    return '1';
  }

  @Resource({ uri: 'mem://shelf/2' }) two() {
    return '2';
  }

  @Resource({ uri: 'mem://shelf/3' }) three() {
    return '3';
  }
}

describe('legacy pagination', () => {
  /** Every page of `method` on a legacy session, following nextCursor. */
  async function walk(request: (method: string, params?: object) => Promise<Record<string, any>>, method: string, key: string) {
    const pages: Array<Record<string, any>> = [];
    let cursor: string | undefined;
    do {
      const { result } = await request(method, cursor === undefined ? undefined : { cursor });
      pages.push(result);
      cursor = result.nextCursor;
    } while (cursor !== undefined && pages.length < 10);
    return { pages, names: pages.flatMap((page) => page[key].map((item: { name: string }) => item.name)) };
  }

  test('a cursor walk over tools/list and resources/list visits every item once, in legacy-shaped pages', async () => {
    const s = legacySession([Shapes, Shelves], { pageSize: 2 });
    await s.init();
    const tools = await walk(s.request, 'tools/list', 'tools');
    expect(tools.names).toEqual(['answer', 'boxed', 'remember', 'ask']);
    expect(tools.pages.map((page) => page.tools.length)).toEqual([2, 2]);
    const resources = await walk(s.request, 'resources/list', 'resources');
    expect(resources.names).toEqual(['a', 'one', 'two', 'three']);
    for (const page of [...tools.pages, ...resources.pages])
      for (const modern of ['resultType', 'ttlMs', 'cacheScope', '_meta']) expect(page).not.toHaveProperty(modern);
  });

  test('a forged cursor is -32602 on a legacy session, which keeps serving', async () => {
    const s = legacySession([Shapes], { pageSize: 2 });
    await s.init();
    expect((await s.request('tools/list', { cursor: 'not-a-cursor' })).error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('Invalid cursor'),
    });
    expect((await s.request('tools/list')).result.tools).toHaveLength(2);
  });
});
