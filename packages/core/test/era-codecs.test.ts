import 'reflect-metadata';
import { jest } from '@jest/globals';
import { McpServer, Resource, Tool, type Result } from '@decorum/core';
import { RawJson } from '@decorum/core/transport';
import { ModernCodec } from '../src/era/modern-codec.js';
import { LegacyCodec } from '../src/era/legacy-codec.js';
import { ListPage } from '../src/wire/list-page.js';
import { META } from '../src/protocol/meta-keys.js';
import { request } from '@decorum-internal/test-support';
import { harness } from './support/engine-harness.js';
import { legacySession } from './support/legacy-session.js';

const info = Object.freeze({ name: 's', version: '1' });
const hints = { ttlMs: 5000, cacheScope: 'public' } as const;

describe('the modern codec adds the keys only 2026-07-28 defines', () => {
  const modern = new ModernCodec(info);

  test('resultType complete, the hints the method chose, and the server in _meta', () => {
    expect(modern.result('resources/read', { contents: [] }, hints)).toEqual({
      contents: [],
      resultType: 'complete',
      ttlMs: 5000,
      cacheScope: 'public',
      _meta: { [META.serverInfo]: info },
    });
  });

  test('without hints none are written', () => {
    const result = modern.result('tools/call', { content: [] });
    expect(result).not.toHaveProperty('ttlMs');
    expect(result).not.toHaveProperty('cacheScope');
    expect(result).toMatchObject({ resultType: 'complete' });
  });

  test('a result that says otherwise keeps it: input_required, and hints of its own', () => {
    expect(modern.result('tools/call', { resultType: 'input_required', inputRequests: {} }, hints)).toEqual({
      resultType: 'input_required',
      inputRequests: {},
      _meta: { [META.serverInfo]: info },
    });
    expect(modern.result('resources/read', { contents: [], ttlMs: 0 }, hints)).toMatchObject({ ttlMs: 0, cacheScope: 'public' });
  });

  test('a pre-serialized page is sent as it is', () => {
    const page = new RawJson('{"tools":[]}');
    expect(modern.result('tools/list', page, hints)).toBe(page);
  });
});

describe('list pages: each era from the same members', () => {
  const members = { tools: [{ name: 't', title: 'T', inputSchema: { type: 'object' } }] };
  const page = new ListPage(members, hints, new ModernCodec(info));

  test('the modern page is finished by the modern codec; its members are left as they were', () => {
    expect(JSON.parse(page.json)).toEqual({ resultType: 'complete', ...members, ttlMs: 5000, cacheScope: 'public', _meta: { [META.serverInfo]: info } });
    expect(page.json.startsWith('{"resultType":"complete",')).toBe(true);
    expect(page.members).toEqual(members);
  });

  test('a legacy page is made from the members, not from the modern JSON, once per revision', () => {
    const parse = jest.spyOn(JSON, 'parse');
    try {
      const latest = new LegacyCodec('2025-11-25').result('tools/list', page) as RawJson;
      expect(parse).not.toHaveBeenCalled();
      expect(latest.json).toBe(JSON.stringify(members));
      expect(new LegacyCodec('2025-11-25').result('tools/list', page)).toBe(latest);
      const older = new LegacyCodec('2025-03-26').result('tools/list', page) as RawJson;
      expect(older.json).toBe('{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}');
    } finally {
      parse.mockRestore();
    }
  });
});

describe('a legacy result never had the modern keys', () => {
  test('the legacy codec leaves a result it need not reshape as it is, and changes none in place', () => {
    const result: Result = { content: [{ type: 'text', text: 'hi' }], isError: false, _meta: { 'example.com/trace': 'x' } };
    expect(new LegacyCodec().result('tools/call', result)).toBe(result);
    const structured: Result = { content: [], structuredContent: 42 };
    expect(new LegacyCodec().result('tools/call', structured)).toEqual({ content: [] });
    expect(structured.structuredContent).toBe(42);
  });

  test('an answer a middleware wrote for both eras loses the keys no legacy revision defines', () => {
    const bothEras: Result = { resultType: 'complete', ttlMs: 1000, cacheScope: 'public', content: [] };
    expect(new LegacyCodec().result('tools/call', bothEras)).toEqual({ content: [] });
    expect(bothEras.resultType).toBe('complete');
  });

  @McpServer({ name: 'cached', version: '1.0.0' })
  class Cached {
    @Tool({ input: null })
    hello() {
      return 'hi';
    }

    @Resource({ uri: 'mem://a', ttlMs: 60_000, cacheScope: 'public' })
    a() {
      return 'A';
    }
  }

  test('the same methods: modern answers carry resultType and the cache hints, legacy answers nothing of them', async () => {
    const { call } = harness([Cached]);
    const read = await call(request(1, 'resources/read', { uri: 'mem://a' }));
    expect(read!.result).toMatchObject({ resultType: 'complete', ttlMs: 60_000, cacheScope: 'public' });
    expect((await call(request(2, 'server/discover')))!.result).toMatchObject({ resultType: 'complete', ttlMs: expect.any(Number), cacheScope: 'public' });
    expect((await call(request(3, 'tools/call', { name: 'hello' })))!.result).toMatchObject({ resultType: 'complete' });

    const s = legacySession([Cached]);
    await s.init();
    expect((await s.request('resources/read', { uri: 'mem://a' })).result).toEqual({ contents: [{ uri: 'mem://a', text: 'A' }] });
    expect((await s.request('tools/call', { name: 'hello', arguments: {} })).result).toEqual({ content: [{ type: 'text', text: 'hi' }], isError: false });
    expect((await s.request('tools/list')).result).not.toHaveProperty('resultType');
  });
});

describe('each codec says the HTTP status of its errors', () => {
  const modern = new ModernCodec(info);
  test.each([
    [-32700, 'request', 400],
    [-32600, 'request', 400],
    [-32602, 'request', 400],
    [-32020, 'request', 400],
    [-32021, 'request', 400],
    [-32022, 'request', 400],
    [-32601, 'request', 404],
    [-32603, 'request', 500],
    [-32601, 'handler', 404],
    [-32021, 'handler', 400],
    [-32020, 'handler', 400],
    [-32602, 'handler', 200],
    [-32603, 'handler', 200],
    [-31403, 'handler', 403],
    [-31429, 'handler', 429],
    [-31999, 'handler', 200],
  ] as const)('modern: %i from the %s → %i', (code, origin, status) => {
    expect(modern.errorStatus(code, origin)).toBe(status);
  });

  test.each([
    [-32700, 'request', 400],
    [-32600, 'request', 400],
    [-32602, 'request', 400],
    [-32603, 'request', 400],
    [-32600, 'handler', 200],
    [-32601, 'handler', 200],
    [-32602, 'handler', 200],
    [-32603, 'handler', 200],
    [-32002, 'handler', 200],
    [-31403, 'handler', 403],
    [-31429, 'handler', 429],
  ] as const)('legacy: %i from the %s → %i', (code, origin, status) => {
    expect(new LegacyCodec().errorStatus(code, origin)).toBe(status);
  });
});
