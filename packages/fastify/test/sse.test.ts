import { request as httpRequest } from 'node:http';
import { body, rpc, standardHeaders } from './support/http.js';
import { startApp, type TestApp } from './support/app.js';
import { FixtureServer, probes } from './support/fixture-server.js';

/** SSE responses scoped to one request (spec "Receiving Messages"; #58, #59). */
describe('JSON or SSE per request', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ servers: [FixtureServer] });
  });
  afterAll(() => t.close());

  test('without progressToken or log level → plain JSON', async () => {
    const res = await rpc(t.url, 1, 'tools/call', { name: 'slow', arguments: { steps: 2, delayMs: 1 } });
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json.result.content[0].text).toBe('done after 2 steps');
  });

  test('with a progressToken → text/event-stream: progress events in order, then the response, then the end (#59)', async () => {
    const res = await rpc(t.url, 'call-1', 'tools/call', { name: 'slow', arguments: { steps: 4, delayMs: 5 } }, { progressToken: 'tok' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.headers['x-accel-buffering']).toBe('no');
    expect(res.headers['cache-control']).toBe('no-cache');
    const progress = res.events.filter((e) => e.method === 'notifications/progress');
    expect(progress.map((e) => e.params)).toEqual([1, 2, 3, 4].map((i) => ({ progressToken: 'tok', progress: i, total: 4, message: `step ${i}` })));
    // The response comes last and nothing follows it.
    expect(res.events.at(-1)).toMatchObject({ jsonrpc: '2.0', id: 'call-1', result: { content: [{ text: 'done after 4 steps' }] } });
    expect(res.events).toHaveLength(5);
    expect(res.events.every((e) => !('method' in e && 'id' in e))).toBe(true);
  });

  test('each event is "data: <json>" and a blank line, with no id: or retry: lines (#58)', async () => {
    const res = await rpc(
      t.url,
      2,
      'tools/call',
      { name: 'slow', arguments: { steps: 2, delayMs: 1 } },
      { progressToken: 7, headers: { 'last-event-id': '5', 'mcp-session-id': 'abc' } },
    );
    const lines = res.text.split('\n');
    expect(lines.filter((l) => l !== '').every((l) => l.startsWith('data: '))).toBe(true);
    expect(res.text).not.toMatch(/^(id|retry|event):/m);
    expect(res.text.endsWith('\n\n')).toBe(true);
    expect(res.headers['mcp-session-id']).toBeUndefined();
    expect(res.events.at(-1).id).toBe(2);
  });

  test('with a log level → notifications/message events for ctx.log entries at or above it', async () => {
    const res = await rpc(t.url, 3, 'tools/call', { name: 'slow', arguments: { steps: 2, delayMs: 1 } }, { logLevel: 'info' });
    expect(res.headers['content-type']).toBe('text/event-stream');
    const logs = res.events.filter((e) => e.method === 'notifications/message');
    expect(logs).toHaveLength(2);
    expect(logs[0].params).toMatchObject({ level: 'info', logger: 'fixture' });
    // No progressToken: no progress notifications.
    expect(res.events.some((e) => e.method === 'notifications/progress')).toBe(false);
  });

  // Ordered by events, not timed: the handler (in this process) has not finished when the headers arrive.
  test('the stream opens (headers arrive) before the handler finishes', async () => {
    const message = body(4, 'tools/call', { name: 'slow', arguments: { steps: 3, delayMs: 60 } }, { progressToken: 'early' });
    const finishedBefore = probes.slowFinished;
    const finishedAtHeaders = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(t.url, { method: 'POST', headers: standardHeaders(message), agent: false }, (res) => {
        const finished = probes.slowFinished - finishedBefore;
        res.resume();
        res.on('end', () => resolve(finished));
      });
      req.on('error', reject);
      req.end(JSON.stringify(message));
    });
    expect(finishedAtHeaders).toBe(0);
    expect(probes.slowFinished - finishedBefore).toBe(1);
  });

  test('a JSON-RPC error raised inside the handler goes on the stream (status already 200) as its last event', async () => {
    const res = await rpc(t.url, 5, 'tools/call', { name: 'reject_late' }, { progressToken: 'x' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.events.map((e) => e.method ?? 'response')).toEqual(['notifications/progress', 'response']);
    expect(res.events[1]).toMatchObject({ id: 5, error: { code: -32602, message: 'rejected from inside the handler' } });
  });

  test('errors found before the handler stay plain JSON with their status, even for streaming requests', async () => {
    const res = await rpc(t.url, 6, 'tools/call', { name: 'slow', arguments: {} }, { progressToken: 'x', headers: { 'mcp-name': 'wrong' } });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const unknown = await rpc(t.url, 7, 'resources/read', { uri: 'nothing://here' }, { progressToken: 'x' });
    expect(unknown.headers['content-type']).toMatch(/^application\/json/);
    expect(unknown.json.error.code).toBe(-32602);
  });

  test('a quiet stream gets keep-alive comments, which carry no event', async () => {
    const k = await startApp({ servers: [FixtureServer], sseKeepAliveMs: 20 });
    try {
      const res = await rpc(k.url, 8, 'tools/call', { name: 'slow', arguments: { steps: 2, delayMs: 70 } }, { progressToken: 'k' });
      expect(res.text).toMatch(/^: keep-alive$/m);
      expect(res.events.map((e) => e.method ?? 'response')).toEqual(['notifications/progress', 'notifications/progress', 'response']);
    } finally {
      await k.close();
    }
  });
});
