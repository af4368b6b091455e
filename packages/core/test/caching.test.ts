import 'reflect-metadata';
import { Type } from 'typebox';
import { Complete, McpServer, Prompt, Resource, Tool } from '@decorum/core';
import { harness } from './support/engine-harness.js';
import { request } from '@decorum-internal/test-support';

@McpServer({ name: 'cache', version: '1.0.0' })
class Cached {
  @Tool({ input: null, ttlMs: 2_000 })
  short() {
    return 'x';
  }
  @Prompt({ input: Type.Object({ a: Type.String() }) })
  p() {
    return 'p';
  }
  @Complete({ prompt: 'p', argument: 'a' })
  c() {
    return ['a'];
  }
  @Resource({ uri: 'r://default' })
  plain() {
    return 'plain';
  }
  @Resource({ uri: 'r://shared', ttlMs: 60_000, cacheScope: 'public' })
  shared() {
    return 'shared';
  }
  @Resource({ uriTemplate: 't://{id}' })
  templ() {
    return 't';
  }
}

const CACHEABLE: Array<[string, Record<string, unknown>]> = [
  ['server/discover', {}],
  ['tools/list', {}],
  ['prompts/list', {}],
  ['resources/list', {}],
  ['resources/templates/list', {}],
  ['resources/read', { uri: 'r://default' }],
];

/** ttlMs/cacheScope on every cacheable result (C-01, C-09), none on the others (C-06, CO-03). */
describe('caching hints', () => {
  test.each(CACHEABLE)('%s carries an integer ttlMs ≥ 0 and a cacheScope', async (method, params) => {
    const { call } = harness([Cached]);
    const { result } = (await call(request(1, method, params)))!;
    expect(Number.isInteger(result.ttlMs) && result.ttlMs >= 0).toBe(true);
    expect(['public', 'private']).toContain(result.cacheScope);
  });

  test('defaults: discover 1 h public, lists 5 min public (a tool lowers its page), reads 0 private', async () => {
    const { call } = harness([Cached]);
    const hints = async (method: string, params = {}) => {
      const { result } = (await call(request(1, method, params)))!;
      return [result.ttlMs, result.cacheScope];
    };
    expect(await hints('server/discover')).toEqual([3_600_000, 'public']);
    expect(await hints('tools/list')).toEqual([2_000, 'public']);
    expect(await hints('prompts/list')).toEqual([300_000, 'public']);
    expect(await hints('resources/list')).toEqual([300_000, 'public']);
    expect(await hints('resources/templates/list')).toEqual([300_000, 'public']);
    expect(await hints('resources/read', { uri: 'r://default' })).toEqual([0, 'private']);
    expect(await hints('resources/read', { uri: 'r://shared' })).toEqual([60_000, 'public']);
  });

  test('server-wide defaults apply where no decorator overrides them', async () => {
    const { call } = harness([Cached], { cache: { discover: { ttlMs: 10 }, lists: { ttlMs: 20, cacheScope: 'private' }, reads: { ttlMs: 30 } } });
    const hints = async (method: string, params = {}) => {
      const { result } = (await call(request(1, method, params)))!;
      return [result.ttlMs, result.cacheScope];
    };
    expect(await hints('server/discover')).toEqual([10, 'public']);
    expect(await hints('tools/list')).toEqual([20, 'private']);
    expect(await hints('prompts/list')).toEqual([20, 'private']);
    expect(await hints('resources/read', { uri: 'r://default' })).toEqual([30, 'private']);
    expect(await hints('resources/read', { uri: 't://1' })).toEqual([30, 'private']);
    expect(await hints('resources/read', { uri: 'r://shared' })).toEqual([60_000, 'public']);
  });

  test('non-cacheable results carry no hints: tools/call, prompts/get, completion/complete, the listen result', async () => {
    const { server, call } = harness([Cached]);
    for (const [method, params] of [
      ['tools/call', { name: 'short' }],
      ['prompts/get', { name: 'p', arguments: { a: 'x' } }],
      ['completion/complete', { ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: '' } }],
    ] as const) {
      const { result } = (await call(request(1, method, params)))!;
      expect(result).not.toHaveProperty('ttlMs');
      expect(result).not.toHaveProperty('cacheScope');
    }
    const listen = call(request('L', 'subscriptions/listen', { notifications: {} }));
    server.closeSubscriptions();
    const { result } = (await listen)!;
    expect(result).not.toHaveProperty('ttlMs');
  });
});
