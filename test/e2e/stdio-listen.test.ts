import { fixture, request, StdioProcess } from '@decorum-internal/test-support';

const SUB = 'io.modelcontextprotocol/subscriptionId';
const FIXTURE = fixture('live-server.ts');
const listen = (id: string | number, notifications: Record<string, unknown>) => request(id, 'subscriptions/listen', { notifications });
const call = (id: string | number, name: string, args: Record<string, unknown> = {}) => request(id, 'tools/call', { name, arguments: args });
const tagged = (p: StdioProcess, id: string | number) => p.messages.filter((m) => m.params?._meta?.[SUB] === id || m.result?._meta?.[SUB] === id);
const ack = (id: string | number) => (m: Record<string, any>) => m.method === 'notifications/subscriptions/acknowledged' && m.params._meta[SUB] === id;

/** `subscriptions/listen` over stdio, against a real `mcp-serve` child process (§19.1 rows 16–18). */
describe('subscriptions/listen on stdio', () => {
  let p: StdioProcess;
  beforeEach(() => {
    p = StdioProcess.serve(FIXTURE);
  });
  afterEach(() => p.kill());

  test('discover advertises listChanged, subscribe and completions', async () => {
    const { result } = await p.request(request('d', 'server/discover'));
    expect(result.capabilities).toMatchObject({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      completions: {},
    });
  });

  test('row 16: ack first (string id kept), then tools/list_changed when a tool disables another', async () => {
    p.send(listen('L1', { toolsListChanged: true, promptsListChanged: true }));
    await p.waitFor(ack('L1'));
    expect((await p.request(call(1, 'set_deploy', { enabled: false }))).result.content[0].text).toBe('deploy disabled (changed: true)');
    const changed = await p.waitFor((m) => m.method === 'notifications/tools/list_changed');
    expect(changed).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { [SUB]: 'L1' } } });
    const messages = tagged(p, 'L1');
    expect(messages[0]).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { toolsListChanged: true, promptsListChanged: true } },
    });
    expect(messages[1]).toBe(changed);
    const list = await p.request(request(2, 'tools/list'));
    expect(list.result.tools.map((t: { name: string }) => t.name)).not.toContain('deploy');
    expect((await p.request(call(3, 'deploy'))).error.code).toBe(-32602);
  });

  test('row 17: two listens (20 and 21) with different filters; progress and logs never tagged', async () => {
    p.send(listen(20, { toolsListChanged: true }));
    p.send(listen(21, { promptsListChanged: true, resourceSubscriptions: ['notes://{id}'] }));
    await p.waitFor(ack(20));
    await p.waitFor(ack(21));
    await p.request(call(1, 'set_deploy', { enabled: false }));
    await p.request(call(2, 'set_greet', { enabled: false }));
    await p.request(call(3, 'touch', { uri: 'notes://7' }));
    await p.request(request(4, 'tools/call', { name: 'chatty', arguments: {} }, { progressToken: 'tok', logLevel: 'debug' }));
    await p.waitFor((m) => m.method === 'notifications/resources/updated');
    expect(tagged(p, 20).map((m) => m.method)).toEqual(['notifications/subscriptions/acknowledged', 'notifications/tools/list_changed']);
    expect(tagged(p, 21).map((m) => m.method)).toEqual([
      'notifications/subscriptions/acknowledged',
      'notifications/prompts/list_changed',
      'notifications/resources/updated',
    ]);
    expect(tagged(p, 21)[2].params.uri).toBe('notes://7');
    // The integer id stays an integer.
    expect(typeof tagged(p, 20)[1].params._meta[SUB]).toBe('number');
    const requestScoped = p.messages.filter((m) => m.method === 'notifications/progress' || m.method === 'notifications/message');
    expect(requestScoped.length).toBeGreaterThanOrEqual(3);
    expect(requestScoped.every((m) => m.params._meta?.[SUB] === undefined)).toBe(true);
  });

  test('filtering: a type not asked for is never sent', async () => {
    p.send(listen('only-resources', { resourceSubscriptions: ['notes://index'] }));
    await p.waitFor(ack('only-resources'));
    await p.request(call(1, 'set_deploy', { enabled: false }));
    await p.request(call(2, 'touch', { uri: 'notes://other' }));
    await p.request(call(3, 'touch', { uri: 'notes://index' }));
    await p.waitFor((m) => m.method === 'notifications/resources/updated');
    await p.request(request(4, 'tools/list'));
    expect(tagged(p, 'only-resources').map((m) => [m.method, m.params.uri])).toEqual([
      ['notifications/subscriptions/acknowledged', undefined],
      ['notifications/resources/updated', 'notes://index'],
    ]);
    expect(p.messages.some((m) => m.method === 'notifications/tools/list_changed')).toBe(false);
  });

  test('row 18: notifications/cancelled ends the listen — no response, nothing more tagged', async () => {
    p.send(listen('L1', { toolsListChanged: true }));
    await p.waitFor(ack('L1'));
    p.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'L1' } });
    await p.request(call(1, 'set_deploy', { enabled: false }));
    await p.request(call(2, 'set_deploy', { enabled: true }));
    await p.request(request(3, 'tools/list'));
    expect(tagged(p, 'L1').map((m) => m.method)).toEqual(['notifications/subscriptions/acknowledged']);
    expect(p.messages.some((m) => m.id === 'L1')).toBe(false);
    // The id is free again for a new listen.
    p.send(listen('L1', { toolsListChanged: true }));
    await p.waitFor(() => tagged(p, 'L1').length === 2);
  });

  test('shutdown (stdin EOF) answers each listen with its closing result, then notifications/cancelled', async () => {
    p.send(listen('L1', { toolsListChanged: true }));
    p.send(listen(5, {}));
    await p.waitFor(ack('L1'));
    await p.waitFor(ack(5));
    p.child.stdin.end();
    expect(await p.exit()).toBe(0);
    const result = p.messages.find((m) => m.id === 'L1');
    expect(result).toMatchObject({ jsonrpc: '2.0', id: 'L1', result: { resultType: 'complete', _meta: { [SUB]: 'L1' } } });
    expect(p.messages.find((m) => m.id === 5)?.result._meta[SUB]).toBe(5);
    const cancelled = p.messages.findIndex((m) => m.method === 'notifications/cancelled' && m.params.requestId === 'L1');
    expect(cancelled).toBeGreaterThan(p.messages.indexOf(result!));
  });

  test('completion/complete over stdio', async () => {
    const { result } = await p.request(
      request(1, 'completion/complete', { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'language', value: 'e' } }),
    );
    expect(result.completion.values).toEqual(['english', 'esperanto']);
  });
});
