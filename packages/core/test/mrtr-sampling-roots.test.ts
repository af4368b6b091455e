import 'reflect-metadata';
import { McpServer, Tool, type ToolContext } from '@decorum/core';
import { harness } from './support/engine-harness.js';
import { request } from '@decorum-internal/test-support';
import { MrtrServer } from './support/mrtr-fixture.js';

const NAME_FORM = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } as const;

/** Asks started together (Promise.all) versus one started after a caught signal. */
@McpServer({ name: 'mrtr-concurrent', version: '1.0.0' })
class ConcurrentAsks {
  @Tool({ input: null })
  async all_at_once(_args: unknown, ctx: ToolContext) {
    const [who, reply, roots] = await Promise.all([
      ctx.elicit<{ name: string }>({ message: 'Name?', requestedSchema: NAME_FORM }, { key: 'user_name' }),
      ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Greet' } }], maxTokens: 10 }, { key: 'greeting' }),
      ctx.roots({ key: 'client_roots' }),
    ]);
    return `${who.content?.name}|${reply.model}|${roots.length}`;
  }

  @Tool({ input: null })
  async caught_then_ask(_args: unknown, ctx: ToolContext) {
    try {
      await ctx.elicit({ message: 'Name?', requestedSchema: NAME_FORM }, { key: 'first' });
    } catch {
      // a handler bug: the round already ended, so the next ask must not join it
    }
    await ctx.roots({ key: 'late' });
    return 'unreachable';
  }
}

describe('MRTR sampling and roots', () => {
  const { call } = harness([MrtrServer], { mrtr: { keys: ['B'.repeat(43) + '='] } });

  test("ctx.sample asks sampling/createMessage and resolves with the client's message", async () => {
    const caps = { capabilities: { sampling: {} } };
    const first = await call(request(1, 'tools/call', { name: 'summarize', arguments: {} }, caps));
    expect(first?.result.inputRequests).toEqual({
      'sample-1': {
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: { type: 'text', text: 'Summarize: hello' } }], maxTokens: 50 },
      },
    });
    const answer = { role: 'assistant', content: { type: 'text', text: 'A greeting.' }, model: 'test-model', stopReason: 'endTurn' };
    const done = await call(
      request(2, 'tools/call', { name: 'summarize', arguments: {}, requestState: first?.result.requestState, inputResponses: { 'sample-1': answer } }, caps),
    );
    expect(done?.result.content[0].text).toBe('test-model: A greeting.');
    const malformed = await call(
      request(
        3,
        'tools/call',
        { name: 'summarize', arguments: {}, requestState: first?.result.requestState, inputResponses: { 'sample-1': { text: 'no' } } },
        caps,
      ),
    );
    expect(malformed?.error.code).toBe(-32602);
  });

  test('ctx.roots asks roots/list', async () => {
    const caps = { capabilities: { roots: {} } };
    const first = await call(request(1, 'tools/call', { name: 'list_roots', arguments: {} }, caps));
    expect(first?.result.inputRequests).toEqual({ 'roots-1': { method: 'roots/list' } });
    const done = await call(
      request(
        2,
        'tools/call',
        {
          name: 'list_roots',
          arguments: {},
          requestState: first?.result.requestState,
          inputResponses: { 'roots-1': { roots: [{ uri: 'file:///a', name: 'a' }, { uri: 'file:///b' }] } },
        },
        caps,
      ),
    );
    expect(done?.result.content[0].text).toBe('file:///a,file:///b');
  });

  test('asks started together (Promise.all) go out in one input_required; their answers complete it', async () => {
    const { call: callConcurrent } = harness([ConcurrentAsks], { mrtr: { keys: ['C'.repeat(43) + '='] } });
    const caps = { capabilities: { elicitation: {}, sampling: {}, roots: {} } };
    const first = await callConcurrent(request(1, 'tools/call', { name: 'all_at_once', arguments: {} }, caps));
    expect(first?.result.resultType).toBe('input_required');
    expect(Object.keys(first?.result.inputRequests).sort()).toEqual(['client_roots', 'greeting', 'user_name']);
    const inputResponses = {
      user_name: { action: 'accept', content: { name: 'Ada' } },
      greeting: { role: 'assistant', content: { type: 'text', text: 'Hi' }, model: 'm' },
      client_roots: { roots: [{ uri: 'file:///r' }] },
    };
    const done = await callConcurrent(
      request(2, 'tools/call', { name: 'all_at_once', arguments: {}, requestState: first?.result.requestState, inputResponses }, caps),
    );
    expect(done?.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Ada|m|1' }] });
    // Only part of them answered: the rest is asked again, the answered one is kept.
    const partial = await callConcurrent(
      request(
        3,
        'tools/call',
        { name: 'all_at_once', arguments: {}, requestState: first?.result.requestState, inputResponses: { greeting: inputResponses.greeting } },
        caps,
      ),
    );
    expect(Object.keys(partial?.result.inputRequests).sort()).toEqual(['client_roots', 'user_name']);
    const rest = await callConcurrent(
      request(
        4,
        'tools/call',
        {
          name: 'all_at_once',
          arguments: {},
          requestState: partial?.result.requestState,
          inputResponses: { user_name: inputResponses.user_name, client_roots: inputResponses.client_roots },
        },
        caps,
      ),
    );
    expect(rest?.result.content[0].text).toBe('Ada|m|1');
  });

  test('an ask made after a caught signal does not join the ended round', async () => {
    const { call: callConcurrent } = harness([ConcurrentAsks], { mrtr: { keys: ['C'.repeat(43) + '='] } });
    const caps = { capabilities: { elicitation: {}, roots: {} } };
    const first = await callConcurrent(request(1, 'tools/call', { name: 'caught_then_ask', arguments: {} }, caps));
    expect(Object.keys(first?.result.inputRequests)).toEqual(['first']);
  });

  test('missing sampling / roots capability → -32021 naming it', async () => {
    const s = await call(request(1, 'tools/call', { name: 'summarize', arguments: {} }, { capabilities: { elicitation: {} } }));
    expect(s?.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
    const r = await call(request(2, 'tools/call', { name: 'list_roots', arguments: {} }, { capabilities: { sampling: {} } }));
    expect(r?.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { roots: {} } } });
  });
});
