import { ROOT, StdioProcess } from '@decorum-internal/test-support';

/**
 * A stdio process that opens with `initialize` is a legacy (2025-11-25) session for its lifetime:
 * the lifecycle, server→client requests with their own ids, and bad input answered clearly while
 * the process keeps serving.
 */
const WEATHER = `${ROOT}examples/weather/dist/weather.js`;
const EVERYTHING = `${ROOT}examples/everything/dist/everything.js`;
const INIT = { protocolVersion: '2025-06-18', capabilities: { elicitation: {} }, clientInfo: { name: 'legacy-stdio-test', version: '1' } };
const call = (id: string | number, name: string, args: object, meta?: object) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) },
});

describe('legacy sessions over stdio', () => {
  let server: StdioProcess;
  afterEach(async () => {
    server.child.stdin.end();
    await server.exit();
  });

  test('initialize, ping, setLevel, subscribe; an elicitation answered on stdin; progress; list_changed', async () => {
    server = StdioProcess.serve(WEATHER);
    const init = await server.request({ jsonrpc: '2.0', id: 1, method: 'initialize', params: INIT });
    expect(init.result).toMatchObject({
      protocolVersion: '2025-06-18',
      serverInfo: { name: 'weather' },
      capabilities: { tools: { listChanged: true }, logging: {} },
    });
    server.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect((await server.request({ jsonrpc: '2.0', id: 2, method: 'ping' })).result).toEqual({});
    expect((await server.request({ jsonrpc: '2.0', id: 3, method: 'logging/setLevel', params: { level: 'debug' } })).result).toEqual({});
    expect((await server.request({ jsonrpc: '2.0', id: 4, method: 'resources/subscribe', params: { uri: 'weather://cities' } })).result).toEqual({});
    server.send(call(5, 'weather_forecast', { location: 'Tokyo' }, { progressToken: 'p' }));
    const ask = await server.waitFor((m) => m.method === 'elicitation/create');
    // 2025-06-18 has no elicitation mode; the request has the server's own id.
    expect(ask).toMatchObject({ id: expect.stringMatching(/^decorum-/), params: { message: 'How many days of forecast for Tokyo?' } });
    expect(ask.params.mode).toBeUndefined();
    server.send({ jsonrpc: '2.0', id: ask.id, result: { action: 'accept', content: { days: 1 } } });
    const done = await server.waitFor((m) => m.id === 5);
    expect(done.result).toEqual({ content: [{ type: 'text', text: 'Forecast for Tokyo:\nDay 1: Sunny, around 26°C' }], isError: false });
    expect(server.messages).toContainEqual({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 'p', progress: 1, total: 1, message: 'Day 1 of 1' },
    });
    await server.request(call(6, 'weather_alerts_toggle', {}));
    await server.waitFor((m) => m.method === 'notifications/tools/list_changed');
  });

  test('bad input: a second initialize, a response with an unknown id, an unanswered elicitation — each clear, and the process keeps serving', async () => {
    server = StdioProcess.serve(WEATHER, ['--client-request-timeout', '300']);
    await server.request({ jsonrpc: '2.0', id: 1, method: 'initialize', params: INIT });
    const again = await server.request({ jsonrpc: '2.0', id: 2, method: 'initialize', params: INIT });
    expect(again.error).toEqual({ code: -32600, message: 'Invalid Request: the session is already initialized; initialize is sent once per session' });
    server.send({ jsonrpc: '2.0', id: 'never-sent', result: { action: 'accept' } });
    expect((await server.request({ jsonrpc: '2.0', id: 3, method: 'ping' })).result).toEqual({});
    server.send(call(4, 'weather_forecast', { location: 'London' }));
    const ask = await server.waitFor((m) => m.method === 'elicitation/create');
    const failed = await server.waitFor((m) => m.id === 4, 3000);
    expect(failed.error).toEqual({ code: -32001, message: 'The client did not answer elicitation/create within 300 ms' });
    expect(server.messages).toContainEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: ask.id, reason: 'no answer within 300 ms' },
    });
    // A late answer to the cancelled request is an unknown id now: ignored.
    server.send({ jsonrpc: '2.0', id: ask.id, result: { action: 'accept', content: { days: 1 } } });
    expect((await server.request(call(5, 'weather_current', { location: 'Tokyo' }))).result.isError).toBe(false);
    expect((await server.request({ jsonrpc: '2.0', id: 6, method: 'resources/read', params: { uri: 'weather://nowhere' } })).error.code).toBe(-32002);
    expect((await server.request({ jsonrpc: '2.0', id: 7, method: 'server/discover' })).error.code).toBe(-32601);
    await server.waitForStderr(/ignored a response whose id matches no request this session sent/);
  });

  test('2024-11-05: negotiated, and served as that revision defines results, capabilities and progress', async () => {
    server = StdioProcess.serve(EVERYTHING);
    const init = await server.request({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { ...INIT, protocolVersion: '2024-11-05' } });
    expect(init.result.protocolVersion).toBe('2024-11-05');
    // completion/complete has no capability in 2024-11-05 (the modern era declares completions).
    expect(Object.keys(init.result.capabilities).sort()).toEqual(['logging', 'prompts', 'resources', 'tools']);
    const audio = await server.request(call(2, 'test_audio_content', {}));
    expect(audio.result.content).toEqual([{ type: 'text', text: '[audio (audio/wav) left out: MCP 2024-11-05 has no audio content]' }]);
    const progress = await server.request(call(3, 'test_tool_with_progress', {}, { progressToken: 'p' }));
    expect(progress.result.isError).toBe(false);
    expect(server.messages.filter((m) => m.method === 'notifications/progress').map((m) => m.params)).toEqual(
      [0, 50, 100].map((progress) => ({ progressToken: 'p', progress, total: 100 })),
    );
  });

  test("eras: 'dual' — a legacy-shaped request before initialize is -32602 saying to initialize (or to send modern _meta), and the process keeps serving", async () => {
    server = StdioProcess.serve(WEATHER);
    const early = await server.request({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(early.error).toEqual({
      code: -32602,
      message:
        'Invalid params: tools/list has no params._meta["io.modelcontextprotocol/protocolVersion"]. A 2026-07-28 request carries _meta["io.modelcontextprotocol/protocolVersion"] and _meta["io.modelcontextprotocol/clientCapabilities"]; a 2025-11-25 (or earlier) client must open the session with initialize first',
    });
    expect((await server.request({ jsonrpc: '2.0', id: 2, method: 'initialize', params: INIT })).result.protocolVersion).toBe('2025-06-18');
    expect((await server.request({ jsonrpc: '2.0', id: 3, method: 'tools/list' })).result.tools).toHaveLength(3);
  });

  test("eras: 'legacy' — a request before initialize is a clear error", async () => {
    server = StdioProcess.serve(WEATHER, ['--eras', 'legacy']);
    const early = await server.request({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(early.error).toEqual({ code: -32600, message: 'Invalid Request: tools/list before initialize; send initialize first' });
    expect((await server.request({ jsonrpc: '2.0', id: 2, method: 'initialize', params: INIT })).result.protocolVersion).toBe('2025-06-18');
    expect((await server.request({ jsonrpc: '2.0', id: 3, method: 'tools/list' })).result.tools).toHaveLength(3);
  });

  test("eras: 'modern' — initialize is refused with -32022 naming 2026-07-28", async () => {
    server = StdioProcess.serve(WEATHER, ['--eras', 'modern']);
    const init = await server.request({ jsonrpc: '2.0', id: 1, method: 'initialize', params: INIT });
    expect(init.error).toMatchObject({ code: -32022, data: { supported: ['2026-07-28'] } });
    // Without legacy sessions there is nothing to initialize: the modern error alone.
    const bare = await server.request({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(bare.error).toMatchObject({ code: -32602, message: expect.stringMatching(/^Invalid params: params._meta is required/) });
  });
});
