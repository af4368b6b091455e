import { fixture, request, StdioProcess } from '@decorum-internal/test-support';

/** The request pipeline through a real mcp-serve child process on a fixture module. */
describe('request pipeline over stdio (mcp-serve)', () => {
  let server: StdioProcess;
  beforeAll(() => {
    server = StdioProcess.serve(fixture('pipeline-server.ts'));
  });
  afterAll(() => server.kill());

  test('the exported container builds the server class (constructor arguments); serverOptions middleware runs', async () => {
    const answer = await server.request(request(1, 'tools/call', { name: 'time' }));
    expect(answer.result.content.map((c: { text: string }) => c.text)).toEqual(['injected-time', 'principal=local retry=false']);
  });

  test('a guard refusal is -31403; a guard that throws hides its tool, without its details', async () => {
    const refused = await server.request(request(2, 'tools/call', { name: 'lookup', arguments: { topic: 'secret' } }));
    expect(refused.error).toEqual({ code: -31403, message: 'Forbidden: tools/call "lookup" was refused by guard "noSecrets"', data: { guard: 'noSecrets' } });
    const allowed = await server.request(request(3, 'tools/call', { name: 'lookup', arguments: { topic: 'cats' } }));
    expect(allowed.result.content[0].text).toBe('about cats');
    // A guard that throws also hides its tool from per-caller lists, so the call answers as an unknown tool.
    const crashed = await server.request(request(4, 'tools/call', { name: 'crashing' }));
    expect(crashed.error).toEqual({ code: -32602, message: 'Unknown tool: crashing' });
    expect(JSON.stringify(crashed)).not.toContain('internals');
  });

  test('middleware short-circuits; one that returns nothing is -32603 naming it', async () => {
    expect((await server.request(request(5, 'tools/call', { name: 'short' }))).result.content[0].text).toBe('short-circuited');
    const lazy = await server.request(request(6, 'tools/call', { name: 'lazy' }));
    expect(lazy.error).toEqual({ code: -32603, message: 'Middleware "lazy" returned nothing: return next()\'s result, or a result of its own' });
  });

  test('a middleware that never calls next: -32603 naming it once stepTimeoutMs passed; requests sent meanwhile are answered', async () => {
    server.send(request('stuck-1', 'tools/call', { name: 'stuck' }));
    expect((await server.request(request('meanwhile', 'tools/call', { name: 'time' }))).result.content[0].text).toBe('injected-time');
    const stuck = await server.waitFor((m) => m.id === 'stuck-1', 10_000);
    expect(stuck.error).toEqual({
      code: -32603,
      message: 'Middleware "stuck" did not answer within 200 ms (stepTimeoutMs), so the request was ended: a middleware must call next() or return a result',
    });
    await server.waitForStderr('pipeline step timed out');
    expect((await server.request(request('after-stuck', 'tools/call', { name: 'time' }))).result.content[0].text).toBe('injected-time');
  });

  test('per-caller lists hide what the guards refuse this caller, with cacheScope private', async () => {
    const list = await server.request(request(7, 'tools/list'));
    expect(list.result.tools.map((t: { name: string }) => t.name)).toEqual(['time', 'lookup', 'short', 'lazy', 'stuck']);
    expect(list.result.cacheScope).toBe('private');
  });

  test('a span per request on the traceparent of _meta', async () => {
    await server.request(request(8, 'tools/call', { name: 'time' }, { extra: { traceparent: '00-11112222333344445555666677778888-1234567890abcdef-01' } }));
    for (let i = 0; i < 100 && !server.stderr.includes('"jsonrpc.request.id":"8"'); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    const line = server.stderr.split('\n').find((l) => l.startsWith('SPAN ') && l.includes('"jsonrpc.request.id":"8"'))!;
    const span = JSON.parse(line.slice(5));
    expect(span).toMatchObject({ name: 'tools/call time', traceId: '11112222333344445555666677778888', parent: '1234567890abcdef' });
    expect(span.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'time' });
  });

  test('the limiter at its bound under 200 concurrent calls: -31429 with retryAfterMs for each call over, and serving goes on', async () => {
    const ids = Array.from({ length: 200 }, (_, i) => `burst-${i}`);
    for (const id of ids) server.send(request(id, 'tools/call', { name: 'lookup', arguments: { topic: 'dogs' } }));
    const answers = await Promise.all(ids.map((id) => server.waitFor((m) => m.id === id, 15_000)));
    // `lookup` was called twice before (the limit counts before guards run: the refused call counts too): 48 left.
    const ok = answers.filter((a) => a.result);
    const limited = answers.filter((a) => a.error);
    expect(ok).toHaveLength(48);
    expect(limited).toHaveLength(152);
    for (const answer of limited) {
      expect(answer.error).toMatchObject({ code: -31429, data: { retryAfterMs: expect.any(Number), limit: 50, windowMs: 60_000 } });
      expect(answer.error.message).toContain('Rate limit exceeded: 50 calls per 60000 ms of tools/call "lookup" per caller');
    }
    expect((await server.request(request('after-burst', 'tools/list'))).result.tools).toHaveLength(5);
    expect((await server.request(request('after-burst-2', 'tools/call', { name: 'time' }))).result.content[0].text).toBe('injected-time');
  });
});
