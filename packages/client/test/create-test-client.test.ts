import { jest } from '@jest/globals';
import { createTestClient, InputRoundsExceededError, MissingInputHandlerError, type ElicitationRequest, type InputContext } from '@decorum/client';
import { WeatherServer } from '../../../examples/weather/src/weather.js';
import { AskGate } from '../src/ask-gate.js';
import { withInputRounds } from '../src/input-loop.js';
import { EverythingServer } from '../../../examples/everything/src/everything.js';

describe('createTestClient (in-process)', () => {
  test('the API.md example: no port, no child process', async () => {
    const client = await createTestClient(WeatherServer);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['weather_current', 'weather_forecast', 'weather_alerts_toggle']);
    expect((await client.callTool('weather_current', { location: 'London' })).content[0]).toMatchObject({ text: expect.stringContaining('14°C') });
    await client.close();
  });

  test('completion/complete and discover are typed calls too', async () => {
    const client = await createTestClient(EverythingServer);
    const { completion } = await client.complete({ type: 'ref/prompt', name: 'test_prompt_with_arguments' }, { name: 'arg1', value: 'tes' });
    expect(completion.values).toEqual(['test', 'testing', 'tested']);
    const discovered = await client.discover();
    expect(discovered.supportedVersions).toContain('2026-07-28');
    expect(client.serverCapabilities.completions).toBeDefined();
    await client.close();
  });

  test('MRTR: input_required is answered by the handlers, requestState echoed untouched, a new id per round', async () => {
    const elicitation = jest.fn(async (request: ElicitationRequest, _context: InputContext) => ({
      action: 'accept' as const,
      content: (request.message.includes('color') ? { color: 'green' } : request.message.includes('confirm') ? { ok: true } : { name: 'Ada' }) as Record<
        string,
        string | boolean
      >,
    }));
    const sampling = jest.fn(async () => ({ role: 'assistant' as const, content: { type: 'text', text: 'Paris' }, model: 'stand-in' }));
    const roots = jest.fn(() => [{ uri: 'file:///work', name: 'work' }]);
    const client = await createTestClient(EverythingServer, { elicitation, sampling, roots });
    const seen: unknown[] = [];
    const original = client.transport.request.bind(client.transport);
    client.transport.request = (request, exchange) => {
      seen.push({ id: request.id, state: request.params?.requestState, responses: request.params?.inputResponses });
      return original(request, exchange);
    };
    expect((await client.callTool('test_input_required_result_elicitation')).content[0]).toMatchObject({ text: 'Hello, Ada!' });
    expect((await client.callTool('test_input_required_result_sampling')).content[0]).toMatchObject({ text: expect.stringContaining('Paris') });
    expect((await client.callTool('test_input_required_result_list_roots')).content[0]).toMatchObject({ text: expect.stringContaining('file:///work') });
    expect((await client.callTool('test_input_required_result_request_state')).content[0]).toMatchObject({ text: 'state-ok: confirmation accept (ok=true)' });
    expect((await client.callTool('test_input_required_result_multi_round')).content[0]).toMatchObject({ text: "Ada's favorite color is green." });
    const ids = seen.map((s) => (s as { id: number }).id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(elicitation.mock.calls[0][1]).toMatchObject({ method: 'tools/call', target: 'test_input_required_result_elicitation', key: 'user_name' });
    await client.close();
  });

  test('a server that keeps asking hits the round limit; a missing handler is a clear error', async () => {
    const client = await createTestClient(EverythingServer, { elicitation: async () => ({ action: 'accept', content: {} }), maxInputRounds: 2 });
    await expect(client.callTool('test_input_required_result_multi_round')).rejects.toBeInstanceOf(InputRoundsExceededError);
    await client.close();
    const bare = await createTestClient(EverythingServer);
    // No handlers, so no capabilities declared: the server degrades or refuses by itself.
    const result = await bare.callTool('test_input_required_result_capabilities');
    expect(result.content[0]).toMatchObject({ text: 'elicitation not declared; sampling not declared; roots not declared' });
    await bare.close();
    // A server that asks anyway (here: a scripted round asking for sampling the client has no handler for).
    const rounds: unknown[] = [];
    const asking = withInputRounds(
      'tools/call',
      { name: 't' },
      async (params) => {
        rounds.push(params);
        return {
          resultType: 'input_required',
          inputRequests: { s: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } } },
          requestState: 'opaque',
        };
      },
      new AskGate({ elicitation: async () => ({ action: 'decline' }) }, {}, undefined),
    );
    await expect(asking).rejects.toBeInstanceOf(MissingInputHandlerError);
    await expect(asking).rejects.toThrow('The server asked for sampling/createMessage, but the client has no handler for it');
    expect(rounds).toHaveLength(1);
  });

  test('the retry echoes requestState byte for byte, with the answers under the same keys', async () => {
    const rounds: Array<Record<string, unknown>> = [];
    const { result, retried } = await withInputRounds(
      'tools/call',
      { name: 't', arguments: { a: 1 } },
      async (params) => {
        rounds.push(params);
        return rounds.length === 1
          ? {
              resultType: 'input_required',
              inputRequests: { who: { method: 'elicitation/create', params: { message: 'Name?', requestedSchema: { type: 'object', properties: {} } } } },
              requestState: 'v1.ünïcode+/=',
            }
          : { resultType: 'complete', content: [] };
      },
      new AskGate({ elicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }) }, {}, undefined),
    );
    expect(result.resultType).toBe('complete');
    expect(retried).toBe(true);
    expect(rounds[1]).toEqual({
      name: 't',
      arguments: { a: 1 },
      inputResponses: { who: { action: 'accept', content: { name: 'Ada' } } },
      requestState: 'v1.ünïcode+/=',
    });
  });

  test('subscriptions: list changes arrive as an async iterable and invalidate the cache at once', async () => {
    const client = await createTestClient(EverythingServer);
    const before = (await client.listTools()).tools.length;
    const subscription = client.subscribe({ toolsListChanged: true });
    expect(await subscription.acknowledged).toEqual({ toolsListChanged: true });
    const events = subscription[Symbol.asyncIterator]();
    await client.callTool('test_trigger_tool_change');
    expect((await events.next()).value).toEqual({ type: 'tools/list_changed' });
    // The cached page was dropped by the notification: the next list is fresh.
    expect((await client.listTools()).tools.length).toBe(before + 1);
    await subscription.close();
    expect((await events.next()).done).toBe(true);
    await client.close();
  });
});
