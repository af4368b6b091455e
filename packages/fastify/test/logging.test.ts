import { rpc, send } from './support/http.js';
import { LogCapture, startApp, type TestApp } from './support/app.js';
import { FixtureServer } from './support/fixture-server.js';

/** One pino line per request, correlated with ctx.log through Fastify's request id. */
describe('request logging', () => {
  const logs = new LogCapture();
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ servers: [FixtureServer] }, undefined, logs);
  });
  afterAll(() => t.close());

  const settle = () => new Promise((r) => setTimeout(r, 20));
  const summaries = () => logs.lines.filter((l) => l.msg?.startsWith('MCP request'));

  test('one line per request with method, name, status and duration', async () => {
    logs.lines.length = 0;
    await rpc(t.url, 'log-1', 'tools/call', { name: 'echo', arguments: { text: 'x' } });
    await rpc(t.url, 'log-2', 'resources/read', { uri: 'mem://a' });
    await rpc(t.url, 'log-3', 'foo/bar');
    await send(t.url, { method: 'PUT' });
    await settle();
    const lines = summaries();
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatchObject({
      level: 30,
      mcpMethod: 'tools/call',
      mcpName: 'echo',
      rpcId: 'log-1',
      statusCode: 200,
      stream: 'json',
      reqId: expect.anything(),
    });
    expect(typeof lines[0].responseTime).toBe('number');
    expect(lines[1]).toMatchObject({ mcpMethod: 'resources/read', mcpName: 'mem://a', statusCode: 200 });
    expect(lines[2]).toMatchObject({ mcpMethod: 'foo/bar', statusCode: 404, errorCode: -32601 });
    expect(lines[3]).toMatchObject({ statusCode: 405 });
  });

  test('a request refused while routing (unknown tool, unknown method) is logged as a JSON answer', async () => {
    logs.lines.length = 0;
    await rpc(t.url, 'log-nope', 'tools/call', { name: 'nope', arguments: {} });
    await rpc(t.url, 'log-foo', 'foo/bar');
    await settle();
    expect(summaries()).toEqual([
      expect.objectContaining({ rpcId: 'log-nope', stream: 'json', statusCode: 200, errorCode: -32602 }),
      expect.objectContaining({ rpcId: 'log-foo', stream: 'json', statusCode: 404, errorCode: -32601 }),
    ]);
  });

  test('SSE requests are logged once, when the stream ends', async () => {
    logs.lines.length = 0;
    await rpc(t.url, 'log-sse', 'tools/call', { name: 'slow', arguments: { steps: 2, delayMs: 1 } }, { progressToken: 1 });
    await settle();
    expect(summaries()).toEqual([expect.objectContaining({ rpcId: 'log-sse', stream: 'sse', statusCode: 200 })]);
  });

  test('ctx.log entries carry the same request id as the request line', async () => {
    logs.lines.length = 0;
    await rpc(t.url, 'log-ctx', 'tools/call', { name: 'slow', arguments: { steps: 1, delayMs: 1 } });
    await settle();
    const step = logs.lines.find((l) => l.msg === 'slow step');
    const summary = summaries().find((l) => l.rpcId === 'log-ctx');
    expect(step).toBeDefined();
    expect(step.reqId).toBe(summary.reqId);
    expect(step).toMatchObject({ rpcId: 'log-ctx', method: 'tools/call' });
  });

  test('requestLogLevel: false turns the line off', async () => {
    const quiet = new LogCapture();
    const q = await startApp({ servers: [FixtureServer], requestLogLevel: false }, undefined, quiet);
    try {
      await rpc(q.url, 1, 'tools/list');
      await settle();
      expect(quiet.lines.filter((l) => l.msg?.startsWith('MCP request'))).toEqual([]);
    } finally {
      await q.close();
    }
  });

  test('with Fastify logging disabled, log forwarding to the client still works per request', async () => {
    const silent = await startApp({ servers: [FixtureServer] });
    try {
      const [a, b] = await Promise.all([
        rpc(silent.url, 'a', 'tools/call', { name: 'slow', arguments: { steps: 2, delayMs: 5 } }, { logLevel: 'info' }),
        rpc(silent.url, 'b', 'tools/call', { name: 'slow', arguments: { steps: 2, delayMs: 5 } }),
      ]);
      expect(a.events.filter((e) => e.method === 'notifications/message')).toHaveLength(2);
      expect(b.json.result.content[0].text).toBe('done after 2 steps');
    } finally {
      await silent.close();
    }
  });
});
