import 'reflect-metadata';
import { jest } from '@jest/globals';
import { McpServer, Resource, type ResourceContext } from '@decorum/core';
import { connect, createTestClient, type McpClient } from '@decorum/client';
import { McpHost } from '@decorum/client/host';
import { ResultCache } from '../src/cache.js';
import { everythingStdio } from './support/servers.js';

let reads = 0;

/** Lists the tools twice; how many tools/list requests reached the server. */
async function listTwice(client: McpClient): Promise<number> {
  const sent = jest.spyOn(client.transport, 'request');
  await client.listTools();
  await client.listTools();
  return sent.mock.calls.filter(([request]) => request.method === 'tools/list').length;
}

@McpServer({ name: 'cached', version: '1.0.0' })
class Cached {
  @Resource({ uri: 'data://counter', ttlMs: 60_000, cacheScope: 'private' })
  counter() {
    return String(++reads);
  }

  @Resource({ uri: 'data://asks', ttlMs: 60_000, cacheScope: 'public' })
  async asks(_args: unknown, ctx: ResourceContext) {
    const answer = await ctx.elicit<{ ok: boolean }>({
      message: 'Read it?',
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
    });
    return answer.action === 'accept' ? 'read' : 'not read';
  }
}

describe('caching by ttlMs / cacheScope', () => {
  test('ResultCache: private entries are keyed by principal; cursors "" and none differ; TTL; invalidation', () => {
    let now = 0;
    const cache = new ResultCache(0, () => now);
    const page = (n: number, scope: 'public' | 'private') => ({ resultType: 'complete' as const, ttlMs: 1000, cacheScope: scope, n });
    cache.set('resources/read', { uri: 'a://x' }, 'alice', page(1, 'private'));
    expect(cache.get('resources/read', { uri: 'a://x' }, 'alice')).toMatchObject({ n: 1 });
    expect(cache.get('resources/read', { uri: 'a://x' }, 'bob')).toBeUndefined();
    cache.set('tools/list', {}, 'alice', page(2, 'public'));
    cache.set('tools/list', { cursor: '' }, 'alice', page(3, 'public'));
    expect(cache.get('tools/list', {}, 'bob')).toMatchObject({ n: 2 });
    expect(cache.get('tools/list', { cursor: '' }, 'bob')).toMatchObject({ n: 3 });
    now = 999;
    expect(cache.get('tools/list', {}, 'bob')).toBeDefined();
    cache.invalidate({ method: 'notifications/tools/list_changed' });
    expect(cache.get('tools/list', {}, 'bob')).toBeUndefined();
    expect(cache.get('tools/list', { cursor: '' }, 'bob')).toBeUndefined();
    cache.invalidate({ method: 'notifications/resources/updated', params: { uri: 'a://x' } });
    expect(cache.get('resources/read', { uri: 'a://x' }, 'alice')).toBeUndefined();
    cache.set('prompts/list', {}, '', page(4, 'public'));
    now = 2000;
    expect(cache.get('prompts/list', {}, '')).toBeUndefined();
    // ttlMs 0 and a missing ttl (no fallback) are never stored.
    cache.set('resources/list', {}, '', { resultType: 'complete', ttlMs: 0 });
    cache.set('resources/templates/list', {}, '', { resultType: 'complete' });
    expect(cache.get('resources/list', {}, '')).toBeUndefined();
    expect(cache.get('resources/templates/list', {}, '')).toBeUndefined();
  });

  test('a read is served from the cache within its ttl, and fetched again after resources/updated', async () => {
    const client = await createTestClient(Cached);
    const first = await client.readResource('data://counter');
    expect(await client.readResource('data://counter')).toEqual(first);
    const sub = client.subscribe({ resourceSubscriptions: ['data://counter'] });
    await sub.acknowledged;
    const updated = sub[Symbol.asyncIterator]().next();
    client.server.notifyResourceUpdated('data://counter');
    expect((await updated).value).toEqual({ type: 'resources/updated', uri: 'data://counter' });
    expect((await client.readResource('data://counter')).contents).not.toEqual(first.contents);
    await sub.close();
    await client.close();
  });

  test('results of MRTR retries are never cached', async () => {
    const elicitation = jest.fn(async () => ({ action: 'accept' as const, content: { ok: true } }));
    const client = await createTestClient(Cached, { elicitation });
    expect((await client.readResource('data://asks')).contents[0]).toMatchObject({ text: 'read' });
    expect((await client.readResource('data://asks')).contents[0]).toMatchObject({ text: 'read' });
    expect(elicitation).toHaveBeenCalledTimes(2);
    await client.close();
  });

  test('ResultCache: results without hints (legacy) live fallbackTtlMs, kept private; an explicit ttlMs 0 is never kept', () => {
    let now = 0;
    const cache = new ResultCache(1000, () => now);
    cache.set('tools/list', {}, 'alice', { resultType: 'complete' });
    cache.set('prompts/list', {}, 'alice', { resultType: 'complete', ttlMs: 0 });
    expect(cache.get('tools/list', {}, 'alice')).toBeDefined();
    expect(cache.get('tools/list', {}, 'bob')).toBeUndefined();
    expect(cache.get('prompts/list', {}, 'alice')).toBeUndefined();
    now = 999;
    expect(cache.get('tools/list', {}, 'alice')).toBeDefined();
    now = 1000;
    expect(cache.get('tools/list', {}, 'alice')).toBeUndefined();
  });

  test('a legacy server (SDK v1 server-everything): lists are reused within fallbackTtlMs, never without it; McpHost keeps them 60 s by default', async () => {
    const kept = await connect(everythingStdio(), { cache: { fallbackTtlMs: 3_600_000 } });
    const unkept = await connect(everythingStdio());
    const host = new McpHost();
    try {
      await host.connect('everything', everythingStdio());
      expect([kept.era, unkept.era, host.client('everything').era]).toEqual(['legacy', 'legacy', 'legacy']);
      expect(await listTwice(kept)).toBe(1);
      expect(await listTwice(unkept)).toBe(2);
      expect(await listTwice(host.client('everything'))).toBe(1);
    } finally {
      await Promise.all([kept.close(), unkept.close(), host.close()]);
    }
  });
});
