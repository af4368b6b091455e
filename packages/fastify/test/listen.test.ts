import { request as httpRequest, type IncomingMessage } from 'node:http';
import { InProcessNotificationBus, Tool } from '@decorum/core';
import { Type } from 'typebox';
import { LiveServer } from '@decorum-internal/test-support/fixtures';
import { body, rpc, standardHeaders } from './support/http.js';
import { ListenStream } from './support/listen-stream.js';
import { startApp, type TestApp } from './support/app.js';

const SUB = 'io.modelcontextprotocol/subscriptionId';

const call = (url: string, id: number, name: string, args: Record<string, unknown>) => rpc(url, id, 'tools/call', { name, arguments: args });
const acked = (s: ListenStream) => s.waitFor(() => s.events.length > 0);

describe('subscriptions/listen over Streamable HTTP', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startApp({ servers: [LiveServer], sseKeepAliveMs: 100 });
  });
  afterEach(() => t.close());

  test('row 60: SSE; first event = ack; list_changed tagged with the listen id', async () => {
    const s = new ListenStream(t.url, 'L1', { toolsListChanged: true, promptsListChanged: true });
    await s.opened;
    expect(s.response.statusCode).toBe(200);
    expect(s.response.headers['content-type']).toBe('text/event-stream');
    expect(s.response.headers['x-accel-buffering']).toBe('no');
    await acked(s);
    expect(s.events[0]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { toolsListChanged: true, promptsListChanged: true }, _meta: { [SUB]: 'L1' } },
    });
    expect((await call(t.url, 1, 'set_deploy', { enabled: false })).json.result.content[0].text).toContain('disabled');
    const changed = await s.waitForEvent((e) => e.method === 'notifications/tools/list_changed');
    expect(changed.params).toEqual({ _meta: { [SUB]: 'L1' } });
    s.close();
  });

  test('keep-alive comments at the configured interval while the stream is quiet', async () => {
    const s = new ListenStream(t.url, 'k', {});
    await acked(s);
    await s.waitFor(() => (s.text.match(/^: keep-alive$/gm) ?? []).length >= 2);
    expect(s.events).toHaveLength(1);
    s.close();
  });

  test('a listen is SSE even when the client prefers JSON (Accept: application/json only)', async () => {
    const message = body('j', 'subscriptions/listen', { notifications: {} });
    const res = await new Promise<IncomingMessage>((resolve) => {
      const req = httpRequest(t.url, { method: 'POST', headers: { ...standardHeaders(message), accept: 'application/json' }, agent: false }, resolve);
      req.end(JSON.stringify(message));
    });
    expect(res.headers['content-type']).toBe('text/event-stream');
    res.destroy();
  });

  test('two concurrent subscriptions (integer and string ids), each gets only what it asked for', async () => {
    const a = new ListenStream(t.url, 20, { toolsListChanged: true });
    const b = new ListenStream(t.url, '21', { resourceSubscriptions: ['notes://{id}', 'notes://index', 'unknown://x'] });
    await acked(a);
    await acked(b);
    expect(b.events[0].params.notifications).toEqual({ resourceSubscriptions: ['notes://{id}', 'notes://index'] });
    await call(t.url, 1, 'set_deploy', { enabled: false });
    await call(t.url, 2, 'set_greet', { enabled: false });
    await call(t.url, 3, 'touch', { uri: 'notes://42' });
    await call(t.url, 4, 'touch', { uri: 'elsewhere://1' });
    await rpc(t.url, 5, 'tools/call', { name: 'chatty', arguments: {} }, { progressToken: 'p', logLevel: 'debug' });
    await a.waitForEvent((e) => e.method === 'notifications/tools/list_changed');
    await b.waitForEvent((e) => e.method === 'notifications/resources/updated');
    // One more change each, so anything wrongly sent would have arrived before these.
    await call(t.url, 6, 'set_deploy', { enabled: true });
    await call(t.url, 7, 'touch', { uri: 'notes://index' });
    await a.waitFor(() => a.events.length === 3);
    await b.waitFor(() => b.events.length === 3);
    expect(a.events.map((e) => [e.method, e.params._meta[SUB]])).toEqual([
      ['notifications/subscriptions/acknowledged', 20],
      ['notifications/tools/list_changed', 20],
      ['notifications/tools/list_changed', 20],
    ]);
    expect(b.events.map((e) => [e.method, e.params.uri, e.params._meta[SUB]])).toEqual([
      ['notifications/subscriptions/acknowledged', undefined, '21'],
      ['notifications/resources/updated', 'notes://42', '21'],
      ['notifications/resources/updated', 'notes://index', '21'],
    ]);
    a.close();
    b.close();
  });

  test('closing the stream ends the subscription; the server keeps serving', async () => {
    const s = new ListenStream(t.url, 'c', { toolsListChanged: true });
    await acked(s);
    const live = t.app.mcpServers.get('/mcp')!.live;
    expect(live.bus.size).toBe(1);
    s.close();
    await s.ended;
    for (let i = 0; i < 50 && live.bus.size > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(live.bus.size).toBe(0);
    expect((await call(t.url, 1, 'set_deploy', { enabled: false })).status).toBe(200);
  });

  test('graceful shutdown answers each listen with its result, then ends the stream', async () => {
    const a = new ListenStream(t.url, 'L1', { toolsListChanged: true });
    const b = new ListenStream(t.url, 9, {});
    await acked(a);
    await acked(b);
    const closing = t.app.close();
    await Promise.all([a.ended, b.ended]);
    await closing;
    expect(a.events.at(-1)).toMatchObject({ jsonrpc: '2.0', id: 'L1', result: { resultType: 'complete', _meta: { [SUB]: 'L1' } } });
    expect(b.events.at(-1)).toMatchObject({ id: 9, result: { _meta: { [SUB]: 9 } } });
  });

  test('completion/complete over HTTP', async () => {
    const res = await rpc(t.url, 1, 'completion/complete', { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'language', value: 'g' } });
    expect(res.json.result.completion).toEqual({ values: ['german'] });
  });
});

class AddedLater {
  @Tool({ input: Type.Object({ region: Type.String({ 'x-mcp-header': 'Region' }) }) })
  regional(args: { region: string }) {
    return `in ${args.region}`;
  }
}

describe('tools added at run time over HTTP', () => {
  test('are served, announced, and their Mcp-Param-* headers are checked', async () => {
    const t = await startApp({ servers: [LiveServer] });
    try {
      const s = new ListenStream(t.url, 'a', { toolsListChanged: true });
      await acked(s);
      t.app.mcpServers.get('/mcp')!.live.add(AddedLater);
      await s.waitForEvent((e) => e.method === 'notifications/tools/list_changed');
      const ok = await rpc(t.url, 1, 'tools/call', { name: 'regional', arguments: { region: 'eu' } }, { headers: { 'mcp-param-region': 'eu' } });
      expect(ok.json.result.content[0].text).toBe('in eu');
      const missing = await rpc(t.url, 2, 'tools/call', { name: 'regional', arguments: { region: 'eu' } });
      expect(missing.status).toBe(400);
      expect(missing.json.error.code).toBe(-32020);
      s.close();
    } finally {
      await t.close();
    }
  });
});

describe('a listen client that stops reading', () => {
  test('is cut off at its queue limit (an error ends its stream) while others keep receiving', async () => {
    const t = await startApp({ servers: [LiveServer], sseKeepAliveMs: 0, notificationBus: new InProcessNotificationBus({ queueLimit: 100 }) });
    const server = t.app.mcpServers.get('/mcp')!;
    try {
      const stuck = new ListenStream(t.url, 'stuck', { resourceSubscriptions: ['notes://{id}'] });
      const healthy = new ListenStream(t.url, 'healthy', { toolsListChanged: true });
      await acked(stuck);
      await acked(healthy);
      stuck.response.pause();
      // Enough to fill the socket buffers several times over; the bus holds at most 100 of them.
      const uri = `notes://${'x'.repeat(1000)}`;
      for (let i = 0; i < 20_000 && server.live.bus.size === 2; i++) server.notifyResourceUpdated(uri);
      expect(server.live.bus.size).toBe(1);
      await call(t.url, 1, 'set_deploy', { enabled: false });
      await healthy.waitFor(() => healthy.events.length === 2);
      stuck.response.resume();
      await stuck.ended;
      expect(stuck.events.at(-1)).toMatchObject({ id: 'stuck', error: { code: -32603 } });
      healthy.close();
    } finally {
      await t.close();
    }
  });
});

describe('1,000 concurrent idle listen streams', () => {
  test('all are held open and acknowledged, get a change, then are all released', async () => {
    const t = await startApp({ servers: [LiveServer], sseKeepAliveMs: 0 });
    const live = t.app.mcpServers.get('/mcp')!.live;
    try {
      // Opened 100 at a time (all stay open): 1,000 connects at once can overflow the listen backlog
      // on a busy machine (ECONNRESET), which tests the kernel rather than the server.
      const streams: ListenStream[] = [];
      for (let first = 0; first < 1000; first += 100) {
        const batch = Array.from({ length: 100 }, (_, i) => new ListenStream(t.url, first + i, { toolsListChanged: true }));
        await Promise.all(batch.map((s) => acked(s)));
        streams.push(...batch);
      }
      expect(live.bus.size).toBe(1000);
      await call(t.url, 100_000, 'set_deploy', { enabled: false });
      await Promise.all(streams.map((s) => s.waitFor(() => s.events.length === 2, 20_000)));
      expect(streams.every((s, i) => s.events[1].params._meta[SUB] === i)).toBe(true);
      for (const s of streams) s.close();
      await Promise.all(streams.map((s) => s.ended));
      for (let i = 0; i < 200 && live.bus.size > 0; i++) await new Promise((r) => setTimeout(r, 25));
      expect(live.bus.size).toBe(0);
    } finally {
      await t.close();
    }
  }, 60_000);
});
