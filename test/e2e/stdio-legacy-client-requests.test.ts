import { legacyCall, openLegacySession, ROOT, StdioProcess } from '@decorum-internal/test-support';

/**
 * Server→client requests of a legacy stdio session, live, against real mcp-serve processes:
 * sampling and roots asked of the client and answered on stdin (several at once, answered out of
 * order), and a client's `notifications/cancelled` for a request whose handler waits on an ask,
 * which cancels the ask on the client too.
 */
const WEATHER = `${ROOT}examples/weather/dist/weather.js`;
const EVERYTHING = `${ROOT}examples/everything/dist/everything.js`;
const asked = (method: string) => (m: Record<string, any>) => m.method === method && m.id !== undefined;

describe('legacy server→client requests over stdio', () => {
  let server: StdioProcess;
  afterEach(async () => {
    server.child.stdin.end();
    await server.exit();
  });

  test('sampling/createMessage and roots/list are asked of the client and answered on stdin', async () => {
    server = StdioProcess.serve(EVERYTHING);
    await openLegacySession(server, { sampling: {}, roots: { listChanged: true } });

    server.send(legacyCall(1, 'test_sampling', { prompt: 'Capital of France?' }));
    const sample = await server.waitFor(asked('sampling/createMessage'));
    expect(sample).toMatchObject({
      id: expect.stringMatching(/^decorum-/),
      params: { messages: [{ role: 'user', content: { type: 'text', text: 'Capital of France?' } }], maxTokens: 100 },
    });
    server.send({ jsonrpc: '2.0', id: sample.id, result: { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'test-model' } });
    expect((await server.waitFor((m) => m.id === 1)).result.content[0].text).toBe('LLM response: Paris');

    server.send(legacyCall(2, 'test_input_required_result_list_roots'));
    const roots = await server.waitFor(asked('roots/list'));
    expect(roots.params).toBeUndefined();
    server.send({ jsonrpc: '2.0', id: roots.id, result: { roots: [{ uri: 'file:///work', name: 'work' }] } });
    expect((await server.waitFor((m) => m.id === 2)).result.content[0].text).toBe('Client roots: work (file:///work)');
  });

  test('three asks of one handler at once, answered in reverse order, each reach their own ask', async () => {
    server = StdioProcess.serve(EVERYTHING);
    await openLegacySession(server, { elicitation: {}, sampling: {}, roots: {} });
    server.send(legacyCall(1, 'test_input_required_result_multiple_inputs'));
    const [elicit, sample, roots] = await Promise.all([
      server.waitFor(asked('elicitation/create')),
      server.waitFor(asked('sampling/createMessage')),
      server.waitFor(asked('roots/list')),
    ]);
    expect(new Set([elicit.id, sample.id, roots.id]).size).toBe(3);
    server.send({ jsonrpc: '2.0', id: roots.id, result: { roots: [{ uri: 'file:///r' }] } });
    server.send({ jsonrpc: '2.0', id: sample.id, result: { role: 'assistant', content: { type: 'text', text: 'Hi there' }, model: 'm' } });
    server.send({ jsonrpc: '2.0', id: elicit.id, result: { action: 'accept', content: { name: 'Ada' } } });
    expect((await server.waitFor((m) => m.id === 1)).result.content[0].text).toBe('Name: Ada; greeting: Hi there; roots: file:///r');
  });

  test("a client's notifications/cancelled for a request waiting on an elicitation cancels that elicitation with the client", async () => {
    server = StdioProcess.serve(WEATHER);
    await openLegacySession(server, { elicitation: {} });
    server.send(legacyCall(5, 'weather_forecast', { location: 'Tokyo' }));
    const ask = await server.waitFor(asked('elicitation/create'));
    server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5, reason: 'user gave up' } });
    const cancelled = await server.waitFor((m) => m.method === 'notifications/cancelled');
    expect(cancelled).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: ask.id, reason: 'the request that asked was cancelled' },
    });
    // The cancelled request is never answered; a late answer to its ask is ignored; serving goes on.
    server.send({ jsonrpc: '2.0', id: ask.id, result: { action: 'accept', content: { days: 1 } } });
    expect((await server.request({ jsonrpc: '2.0', id: 6, method: 'ping' })).result).toEqual({});
    await server.waitForStderr(/ignored a response whose id matches no request this session sent/);
    expect(server.messages.filter((m) => m.id === 5)).toEqual([]);
    server.send(legacyCall(7, 'weather_forecast', { location: 'London' }));
    const again = await server.waitFor((m) => asked('elicitation/create')(m) && m.id !== ask.id);
    server.send({ jsonrpc: '2.0', id: again.id, result: { action: 'accept', content: { days: 1 } } });
    expect((await server.waitFor((m) => m.id === 7)).result.content[0].text).toBe('Forecast for London:\nDay 1: Light rain, around 14°C');
  });
});
