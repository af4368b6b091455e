import 'reflect-metadata';
import { McpServer, Prompt, Resource, Tool } from '@decorum/core';
import { harness } from './support/engine-harness.js';
import { request } from '@decorum-internal/test-support';

@McpServer({ name: 'tools-only', version: '2.0.0', instructions: 'Use echo to echo.' })
class ToolsOnly {
  @Tool({ input: null }) ping() {
    return 'pong';
  }
}

class MorePieces {
  @Resource({ uri: 'mem://a' }) a() {
    return 'A';
  }
  @Prompt({ input: null }) hello() {
    return 'Hello';
  }
}

describe('server/discover', () => {
  test('advertises only what is registered', async () => {
    const { call } = harness([ToolsOnly]);
    const { result } = (await call(request('d1', 'server/discover')))!;
    expect(result).toEqual({
      resultType: 'complete',
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: { listChanged: true }, logging: {} },
      instructions: 'Use echo to echo.',
      ttlMs: 3_600_000,
      cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'tools-only', version: '2.0.0' } },
    });
  });

  test('merges classes: capabilities of all, serverInfo of the @McpServer one', async () => {
    const { call } = harness([MorePieces, ToolsOnly]);
    const { result } = (await call(request('d2', 'server/discover')))!;
    expect(result.capabilities).toEqual({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      logging: {},
    });
    expect(result._meta['io.modelcontextprotocol/serverInfo'].name).toBe('tools-only');
  });

  test('cache hints and info are configurable', async () => {
    const { call } = harness([ToolsOnly], { cache: { discover: { ttlMs: 60_000, cacheScope: 'private' } }, info: { instructions: 'Other.', title: 'T' } });
    const { result } = (await call(request('d3', 'server/discover')))!;
    expect(result).toMatchObject({ ttlMs: 60_000, cacheScope: 'private', instructions: 'Other.' });
    expect(result._meta['io.modelcontextprotocol/serverInfo']).toEqual({ name: 'tools-only', version: '2.0.0', title: 'T' });
  });
});
