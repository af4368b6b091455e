import { request, StdioProcess } from '@decorum-internal/test-support';

/** The stdio transport's own rules, against a real mcp-serve child process. */
describe('stdio transport', () => {
  let server: StdioProcess;
  beforeAll(() => {
    server = StdioProcess.serve('test/fixtures/stdio-behaviour.ts');
  });
  afterAll(() => server.kill());

  test('a slow request does not block a fast one', async () => {
    server.send(request('slow-1', 'tools/call', { name: 'slow' }));
    const fast = await server.request(request('fast-1', 'tools/call', { name: 'fast' }));
    expect(fast.result.content[0].text).toBe('fast');
    expect(server.messages.some((m) => m.id === 'slow-1')).toBe(false);
    server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'slow-1' } });
  });

  test('notifications/cancelled aborts ctx.signal and suppresses the response', async () => {
    const count = async (tool: string, id: string) => Number((await server.request(request(id, 'tools/call', { name: tool }))).result.content[0].text);
    const before = await count('aborted_count', 'count-0');
    const startedBefore = await count('started_count', 'started-0');
    server.send(request(42, 'tools/call', { name: 'slow' }));
    for (let i = 1; i < 100 && (await count('started_count', `started-${i}`)) === startedBefore; i++);
    // "42" (a string) is another request: cancelling it must not touch the integer id.
    server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: '42' } });
    server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 42, reason: 'user gave up' } });
    let after = before;
    for (let i = 1; i < 100 && after === before; i++) after = await count('aborted_count', `count-${i}`);
    expect(after).toBe(before + 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(server.messages.filter((m) => m.id === 42)).toEqual([]);
  });

  test('a cancellation for an unknown request is ignored silently', async () => {
    const seen = server.messages.length;
    server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'nope' } });
    const answer = await server.request(request('after-cancel', 'server/discover'));
    expect(answer.result.resultType).toBe('complete');
    expect(server.messages.length).toBe(seen + 1);
  });

  test('an id already in flight is refused with -32600', async () => {
    server.send(request('dup', 'tools/call', { name: 'slow' }));
    server.send(request('dup', 'tools/call', { name: 'fast' }));
    const refused = await server.waitFor((m) => m.id === 'dup' && m.error);
    expect(refused.error).toMatchObject({ code: -32600, message: expect.stringContaining('in flight') });
    server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'dup' } });
  });

  test('console output goes to stderr, never stdout', async () => {
    const answer = await server.request(request('noisy', 'tools/call', { name: 'noisy' }));
    expect(answer.result.content[0].text).toBe('printed');
    expect(server.rawLines.every((line) => line.startsWith('{'))).toBe(true);
    expect(await server.waitForStderr('nor this')).toContain('this must not reach stdout');
    expect(server.stderr).toContain('nor this');
  });

  test('a response sent by the client is ignored and logged; blank lines are skipped', async () => {
    server.send({ jsonrpc: '2.0', id: 'stray', result: {} });
    server.send('');
    server.send('   ');
    const answer = await server.request(request('after-stray', 'server/discover'));
    expect(answer.result.resultType).toBe('complete');
    expect(server.messages.some((m) => m.id === 'stray')).toBe(false);
  });
});
