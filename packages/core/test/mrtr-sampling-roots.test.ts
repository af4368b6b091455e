import { harness } from '../../../test/support/engine-harness.js';
import { request } from '../../../test/support/mcp-requests.js';
import { MrtrServer } from './support/mrtr-fixture.js';

describe('MRTR sampling and roots', () => {
  const { call } = harness([MrtrServer], { mrtr: { keys: ['B'.repeat(43) + '='] } });

  test('ctx.sample asks sampling/createMessage and resolves with the client\'s message', async () => {
    const caps = { capabilities: { sampling: {} } };
    const first = await call(request(1, 'tools/call', { name: 'summarize', arguments: {} }, caps));
    expect(first?.result.inputRequests).toEqual({
      'sample-1': { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'Summarize: hello' } }], maxTokens: 50 } },
    });
    const answer = { role: 'assistant', content: { type: 'text', text: 'A greeting.' }, model: 'test-model', stopReason: 'endTurn' };
    const done = await call(request(2, 'tools/call', { name: 'summarize', arguments: {}, requestState: first?.result.requestState, inputResponses: { 'sample-1': answer } }, caps));
    expect(done?.result.content[0].text).toBe('test-model: A greeting.');
    const malformed = await call(request(3, 'tools/call', { name: 'summarize', arguments: {}, requestState: first?.result.requestState, inputResponses: { 'sample-1': { text: 'no' } } }, caps));
    expect(malformed?.error.code).toBe(-32602);
  });

  test('ctx.roots asks roots/list', async () => {
    const caps = { capabilities: { roots: {} } };
    const first = await call(request(1, 'tools/call', { name: 'list_roots', arguments: {} }, caps));
    expect(first?.result.inputRequests).toEqual({ 'roots-1': { method: 'roots/list' } });
    const done = await call(request(2, 'tools/call', { name: 'list_roots', arguments: {}, requestState: first?.result.requestState, inputResponses: { 'roots-1': { roots: [{ uri: 'file:///a', name: 'a' }, { uri: 'file:///b' }] } } }, caps));
    expect(done?.result.content[0].text).toBe('file:///a,file:///b');
  });

  test('missing sampling / roots capability → -32021 naming it', async () => {
    const s = await call(request(1, 'tools/call', { name: 'summarize', arguments: {} }, { capabilities: { elicitation: {} } }));
    expect(s?.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
    const r = await call(request(2, 'tools/call', { name: 'list_roots', arguments: {} }, { capabilities: { sampling: {} } }));
    expect(r?.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { roots: {} } } });
  });
});
