import 'reflect-metadata';
import { McpServer, Resource, type ResourceContext } from '@decorum/core';
import { harness } from './support/engine-harness.js';
import { request } from '@decorum-internal/test-support';

@McpServer({ name: 'files', version: '1.0.0' })
class Files {
  @Resource({ uri: 'config://app', mimeType: 'application/json', description: 'App config', title: 'Config', size: 17 })
  config() {
    return JSON.stringify({ theme: 'dark' });
  }
  @Resource({ uri: 'bin://logo', mimeType: 'image/png' })
  logo() {
    return Buffer.from([0x89, 0x50, 0x4e, 0x47]);
  }
  @Resource({ uri: 'multi://dir', ttlMs: 10_000, cacheScope: 'public' })
  dir() {
    return {
      contents: [
        { uri: 'multi://dir/a', text: 'A' },
        { uri: 'multi://dir/b', blob: 'Qg==' },
      ],
    };
  }
  @Resource({ uriTemplate: 'users://{id}/profile', mimeType: 'text/plain' })
  profile({ id }: { id: string }, ctx: ResourceContext) {
    return id === 'ghost' ? undefined : `profile of ${id} (${ctx.uri})`;
  }
  @Resource({ uriTemplate: 'users://{path}' })
  anyUser({ path }: { path: string }) {
    return `user path ${path}`;
  }
  @Resource({ uri: 'broken://x' })
  broken() {
    throw new Error('disk on fire at /srv/secret');
  }
}

const { call } = harness([Files]);

describe('resources', () => {
  test('resources/list lists fixed URIs with cache hints', async () => {
    const { result } = (await call(request(1, 'resources/list')))!;
    expect(result.resources).toEqual([
      { uri: 'config://app', name: 'config', title: 'Config', description: 'App config', mimeType: 'application/json', size: 17 },
      { uri: 'bin://logo', name: 'logo', mimeType: 'image/png' },
      { uri: 'multi://dir', name: 'dir' },
      { uri: 'broken://x', name: 'broken' },
    ]);
    expect(result).toMatchObject({ ttlMs: 300_000, cacheScope: 'public' });
  });

  test('resources/templates/list lists templates', async () => {
    const { result } = (await call(request(1, 'resources/templates/list')))!;
    expect(result.resourceTemplates).toEqual([
      { uriTemplate: 'users://{id}/profile', name: 'profile', mimeType: 'text/plain' },
      { uriTemplate: 'users://{path}', name: 'anyUser' },
    ]);
    expect(result).toMatchObject({ resultType: 'complete', ttlMs: 300_000, cacheScope: 'public' });
  });

  test('text, with the declared MIME type and default read hints', async () => {
    const { result } = (await call(request(1, 'resources/read', { uri: 'config://app' })))!;
    expect(result).toMatchObject({
      resultType: 'complete',
      contents: [{ uri: 'config://app', mimeType: 'application/json', text: '{"theme":"dark"}' }],
      ttlMs: 0,
      cacheScope: 'private',
    });
  });

  test('bytes become a base64 blob', async () => {
    const { result } = (await call(request(1, 'resources/read', { uri: 'bin://logo' })))!;
    expect(result.contents).toEqual([{ uri: 'bin://logo', mimeType: 'image/png', blob: 'iVBORw==' }]);
  });

  test('several contents and per-resource cache hints', async () => {
    const { result } = (await call(request(1, 'resources/read', { uri: 'multi://dir' })))!;
    expect(result.contents).toHaveLength(2);
    expect(result).toMatchObject({ ttlMs: 10_000, cacheScope: 'public' });
  });

  test('templates pass variables; the most specific template wins', async () => {
    expect((await call(request(1, 'resources/read', { uri: 'users://42/profile' })))!.result.contents[0].text).toBe('profile of 42 (users://42/profile)');
    expect((await call(request(1, 'resources/read', { uri: 'users://alice' })))!.result.contents[0].text).toBe('user path alice');
  });

  test.each(['mem://missing', 'users://ghost/profile'])('unknown %s is -32602 with data.uri', async (uri) => {
    expect((await call(request(1, 'resources/read', { uri })))!.error).toEqual({ code: -32602, message: `Resource not found: ${uri}`, data: { uri } });
  });

  test('a missing uri is -32602', async () => {
    expect((await call(request(1, 'resources/read', {})))!.error.code).toBe(-32602);
  });

  test('a failing handler is -32603 without details', async () => {
    const response = (await call(request(1, 'resources/read', { uri: 'broken://x' })))!;
    expect(response.error.code).toBe(-32603);
    expect(JSON.stringify(response)).not.toContain('secret');
  });
});
