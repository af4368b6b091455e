import { spawn, type ChildProcess } from 'node:child_process';
import { connect, RequestCancelledError } from '@decorum/client';
import { McpHost } from '@decorum/client/host';
import { FIXTURES } from './support/servers.js';

/** The client against a legacy-only Streamable HTTP server built on the official SDK v1. */
describe('McpClient over HTTP, legacy era (SDK v1 server with sessions)', () => {
  let child: ChildProcess;
  let url: string;
  beforeAll(async () => {
    child = spawn(process.execPath, [`${FIXTURES}legacy-http-server.mjs`], { stdio: ['ignore', 'pipe', 'inherit'] });
    url = await new Promise<string>((resolve) =>
      child.stdout!.on('data', (chunk: Buffer) => {
        const port = /PORT (\d+)/.exec(chunk.toString())?.[1];
        if (port) resolve(`http://127.0.0.1:${port}/mcp`);
      }),
    );
  });
  afterAll(() => child.kill());

  test('discover is refused with HTTP 400 (no JSON-RPC modern error), so the client initializes and keeps the session', async () => {
    const names: string[] = [];
    const client = await connect({ url }, { elicitation: async (request) => (names.push(request.message), { action: 'accept', content: { name: 'Ada' } }) });
    try {
      expect(client.era).toBe('legacy');
      expect(client.serverInfo).toMatchObject({ name: 'legacy-http' });
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['echo', 'ask', 'grow', 'touch', 'wait', 'cancellations']);
      expect((await client.callTool('echo', { text: 'hi' })).content).toEqual([{ type: 'text', text: 'hi' }]);
      // The server's elicitation/create arrives on the call's SSE stream and is answered with a POST.
      expect((await client.callTool('ask')).content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
      expect(names).toEqual(['Your name?']);
    } finally {
      await client.close();
    }
  });

  test('legacy list-changed (on the session GET stream) invalidates the host cache', async () => {
    const host = new McpHost({ approve: () => true, fallbackTtlMs: 60_000 });
    try {
      await host.connect('legacy', { url });
      expect((await host.listTools()).map((t) => t.name)).toEqual([
        'legacy_echo',
        'legacy_ask',
        'legacy_grow',
        'legacy_touch',
        'legacy_wait',
        'legacy_cancellations',
      ]);
      const changed = new Promise<void>((resolve) => host.client('legacy').onChange(() => resolve()));
      await new Promise((resolve) => setTimeout(resolve, 100));
      await host.callTool('legacy_grow');
      await changed;
      expect((await host.listTools()).map((t) => t.name)).toContain('legacy_grown_1');
    } finally {
      await host.close();
    }
  });

  test('legacy subscriptions: resources/subscribe, then updates as the same async iterable; close unsubscribes', async () => {
    const client = await connect({ url });
    try {
      const sub = client.subscribe({ resourceSubscriptions: ['note://1'], toolsListChanged: true });
      expect(await sub.acknowledged).toEqual({ toolsListChanged: true, resourceSubscriptions: ['note://1'] });
      const next = sub[Symbol.asyncIterator]().next();
      expect((await client.callTool('touch')).content).toEqual([{ type: 'text', text: 'announced' }]);
      expect((await next).value).toEqual({ type: 'resources/updated', uri: 'note://1' });
      await sub.close();
      for (let i = 0; i < 20; i++) {
        if (((await client.callTool('touch')).content[0] as { text: string }).text === 'nobody watching') return;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error('close() did not unsubscribe');
    } finally {
      await client.close();
    }
  });

  test('aborting a call sends notifications/cancelled with the reason: a closed stream alone is no cancellation in this era', async () => {
    const client = await connect({ url });
    try {
      const controller = new AbortController();
      const call = client.callTool('wait', {}, { signal: controller.signal, onProgress: () => controller.abort('the user gave up') });
      await expect(call).rejects.toBeInstanceOf(RequestCancelledError);
      const seen = (await client.callTool('cancellations', {}, { timeoutMs: 10_000 })).content[0] as { text: string };
      expect(JSON.parse(seen.text)).toEqual([{ requestId: expect.any(Number), reason: 'the user gave up' }]);
    } finally {
      await client.close();
    }
  });
});
