import { request, StdioProcess, withCharacterReplaced } from '@decorum-internal/test-support';

const KEY = Buffer.alloc(32, 7).toString('base64');
const ELICIT = { capabilities: { elicitation: {} } };

/** MRTR over stdio: the files-wizard example served by the real mcp-serve binary. */
describe('MRTR on stdio (files-wizard example)', () => {
  let server: StdioProcess;
  beforeAll(() => {
    server = StdioProcess.serve('examples/files-wizard/dist/wizard.js', [], { DECORUM_STATE_KEYS: KEY });
  });
  afterAll(() => server.kill());

  test('delete_file: input_required, then the retry with a new id deletes the file', async () => {
    const args = { name: 'delete_file', arguments: { path: '/notes/todo.txt' } };
    const first = await server.request(request('del-1', 'tools/call', args, ELICIT));
    expect(first.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: {
        confirm: {
          method: 'elicitation/create',
          params: { mode: 'form', requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } },
        },
      },
      requestState: expect.stringMatching(/^[\w-]+\.\.[\w-]+\.[\w-]+\.[\w-]+$/), // a compact JWE: header..iv.ciphertext.tag
    });
    expect(first.result.ttlMs).toBeUndefined();
    const listed = await server.request(request('ls-1', 'tools/call', { name: 'list_files', arguments: {} }));
    expect(listed.result.content[0].text).toContain('/notes/todo.txt');
    // One character of the token's tail replaced by a different one.
    const state: string = first.result.requestState;
    const tampered = withCharacterReplaced(state, state.length - 3);
    const refused = await server.request(
      request(
        'del-x',
        'tools/call',
        { ...args, requestState: tampered, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } },
        ELICIT,
      ),
    );
    expect(refused.error.code).toBe(-32602);
    const second = await server.request(
      request(
        'del-2',
        'tools/call',
        { ...args, requestState: first.result.requestState, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } },
        ELICIT,
      ),
    );
    expect(second.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Deleted /notes/todo.txt.' }] });
    const after = await server.request(request('ls-2', 'tools/call', { name: 'list_files', arguments: {} }));
    expect(after.result.content[0].text).not.toContain('/notes/todo.txt');
  });

  test('delete_file without the elicitation capability → -32021', async () => {
    const response = await server.request(request('cap', 'tools/call', { name: 'delete_file', arguments: { path: '/tmp/scratch' } }));
    expect(response.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { form: {} } } } });
  });

  test('plan_trip: three rounds, answers carried in requestState', async () => {
    const args = { name: 'plan_trip', arguments: {} };
    const r1 = await server.request(request('trip-1', 'tools/call', args, ELICIT));
    expect(r1.result.inputRequests['elicit-1'].params.requestedSchema.properties).toMatchObject({
      name: { type: 'string', minLength: 1 },
      people: { type: 'integer', minimum: 1, maximum: 9 },
    });
    const r2 = await server.request(
      request(
        'trip-2',
        'tools/call',
        { ...args, requestState: r1.result.requestState, inputResponses: { 'elicit-1': { action: 'accept', content: { name: 'Ada', people: 2 } } } },
        ELICIT,
      ),
    );
    expect(r2.result.inputRequests['elicit-2'].params.requestedSchema.properties.season).toEqual({
      type: 'string',
      enum: ['spring', 'summer', 'autumn', 'winter'],
    });
    const r3 = await server.request(
      request(
        'trip-3',
        'tools/call',
        { ...args, requestState: r2.result.requestState, inputResponses: { 'elicit-2': { action: 'accept', content: { city: 'Oslo', season: 'winter' } } } },
        ELICIT,
      ),
    );
    expect(r3.result.inputRequests['elicit-3'].params.message).toBe('Book Oslo in winter for 2 (Ada)?');
    const done = await server.request(
      request(
        'trip-4',
        'tools/call',
        { ...args, requestState: r3.result.requestState, inputResponses: { 'elicit-3': { action: 'accept', content: { book: true, extras: ['car'] } } } },
        ELICIT,
      ),
    );
    expect(done.result.content[0].text).toMatch(/^Booked Oslo in winter for 2 \(Ada\), quote Q-\d+, with car\.$/);
  });
});

describe('progress and logging on stdio', () => {
  let server: StdioProcess;
  beforeAll(() => {
    server = StdioProcess.serve('test/fixtures/progress-logging.ts');
  });
  afterAll(() => server.kill());

  const forRequest = (from: number, id: string) =>
    server.messages.slice(from).filter((m) => m.id === id || m.params?.progressToken === id || m.method === 'notifications/message');

  test("progress goes out before the response, strictly increasing, with the request's token", async () => {
    const from = server.messages.length;
    const response = await server.request(request('p1', 'tools/call', { name: 'steps', arguments: {} }, { progressToken: 'p1' }));
    expect(response.result.content[0].text).toBe('steps done');
    const seen = server.messages.slice(from);
    const progress = seen.filter((m) => m.method === 'notifications/progress');
    expect(progress.map((m) => m.params)).toEqual([
      { progressToken: 'p1', progress: 1, total: 4, message: 'one' },
      { progressToken: 'p1', progress: 2, total: 4 },
      { progressToken: 'p1', progress: 3.5, total: 4 },
      { progressToken: 'p1', progress: 4, total: 4, message: 'done' },
    ]);
    expect(seen.indexOf(progress.at(-1)!)).toBeLessThan(seen.indexOf(response));
    // No logLevel asked: no notifications/message at all.
    expect(seen.filter((m) => m.method === 'notifications/message')).toEqual([]);
  });

  test('no progress without a progressToken', async () => {
    const from = server.messages.length;
    await server.request(request('p2', 'tools/call', { name: 'steps', arguments: {} }));
    expect(server.messages.slice(from).filter((m) => m.method)).toEqual([]);
  });

  test('notifications/message only at or above the requested level, before the response', async () => {
    const from = server.messages.length;
    const response = await server.request(request('l1', 'tools/call', { name: 'steps', arguments: {} }, { logLevel: 'warning' }));
    const seen = forRequest(from, 'l1');
    const messages = seen.filter((m) => m.method === 'notifications/message');
    expect(messages.map((m) => m.params.level)).toEqual(['warning', 'error']);
    expect(messages[0].params).toMatchObject({ level: 'warning', logger: 'progress-logging', data: { message: 'warning entry', step: 3 } });
    for (const m of messages) expect(seen.indexOf(m)).toBeLessThan(seen.indexOf(response));
    expect(server.messages.slice(from).some((m) => m.method === 'notifications/progress')).toBe(false);
    const fromDebug = server.messages.length;
    await server.request(request('l2', 'tools/call', { name: 'steps', arguments: {} }, { logLevel: 'debug' }));
    expect(
      server.messages
        .slice(fromDebug)
        .filter((m) => m.method === 'notifications/message')
        .map((m) => m.params.level),
    ).toEqual(['debug', 'info', 'warning', 'error']);
  });

  test('cancellation: ctx.signal aborts, no response, and a handler ignoring it cannot write', async () => {
    const from = server.messages.length;
    server.send(request('c1', 'tools/call', { name: 'stubborn', arguments: {} }, { progressToken: 'c1', logLevel: 'debug' }));
    await server.waitFor((m) => m.method === 'notifications/progress' && m.params.progressToken === 'c1');
    server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'c1', reason: 'test' } });
    let count = '0';
    for (let i = 0; i < 50 && count === '0'; i++)
      count = (await server.request(request(`n${i}`, 'tools/call', { name: 'aborted_count', arguments: {} }))).result.content[0].text;
    expect(count).toBe('1');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const forC1 = server.messages
      .slice(from)
      .filter(
        (m) => m.id === 'c1' || m.params?.progressToken === 'c1' || (m.method === 'notifications/message' && JSON.stringify(m.params).includes('after cancel')),
      );
    expect(forC1.map((m) => m.params?.message ?? m.id)).toEqual(['started']);
  });
});
