// 2025-11-25 core tasks on the raw wire of a stdio session (mcp-serve, a child process): what the
// official client does not show — progress keeping the call's token, the related-task `_meta` on
// every message of the task, `notifications/tasks/status`, bad input answered while the session
// serves on — and a 2025-06-18 session, which has no tasks: its task tools run inline. Over
// Streamable HTTP, a task's ask goes on the stream of the `tasks/result` that waits for it.
import { legacyCall, openLegacySession, StdioProcess } from '@decorum-internal/test-support';
import { serveHttpProcess } from '../../packages/fastify/test/support/cli-process.js';
import { initializeSession, legacyPost, legacyToolCall, OpenStream } from '../../packages/fastify/test/support/legacy-client.js';

const RELATED = 'io.modelcontextprotocol/related-task';

describe('a 2025-11-25 stdio session', () => {
  let server: StdioProcess;
  beforeAll(async () => {
    server = StdioProcess.serve('examples/reports/dist/reports.js', [], { REPORTS_STEP_MS: '20' });
    const init = await openLegacySession(server, { elicitation: {} });
    expect(init.capabilities.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    // The 2026-07-28 extension itself is not advertised to a legacy session.
    expect(init.capabilities.extensions).toBeUndefined();
  });
  afterAll(() => server.kill());

  test('a task: { task } at once; progress with the call’s token, the ask, the statuses and tasks/result all tied to the task', async () => {
    const call = legacyCall('c1', 'build_report', { quarter: 'Q3-2026' }, 'report-progress');
    const created = await server.request({ ...call, params: { ...call.params, task: { ttl: 120_000 } } });
    const { taskId } = created.result.task;
    expect(created.result.task).toMatchObject({ status: 'working', ttl: 120_000, pollInterval: 500 });

    const progress = await server.waitFor((m) => m.method === 'notifications/progress' && m.params.message === 'collecting west');
    expect(progress.params).toMatchObject({ progressToken: 'report-progress', progress: 3, total: 5, _meta: { [RELATED]: { taskId } } });

    server.send({ jsonrpc: '2.0', id: 'r1', method: 'tasks/result', params: { taskId } });
    const ask = await server.waitFor((m) => m.method === 'elicitation/create');
    expect(ask.params).toMatchObject({ message: expect.stringContaining('Count the drafts?'), _meta: { [RELATED]: { taskId } } });
    await server.waitFor((m) => m.method === 'notifications/tasks/status' && m.params.status === 'input_required' && m.params.taskId === taskId);
    expect((await server.request({ jsonrpc: '2.0', id: 'g1', method: 'tasks/get', params: { taskId } })).result.status).toBe('input_required');

    server.send({ jsonrpc: '2.0', id: ask.id, result: { action: 'accept', content: { include: true } } });
    const result = await server.waitFor((m) => m.id === 'r1');
    expect(result.result).toMatchObject({
      content: [{ type: 'text', text: expect.stringMatching(/^Sales report Q3-2026: 12 orders \(drafts included\)/) }],
      _meta: { [RELATED]: { taskId } },
    });
    const statuses = server.messages.filter((m) => m.method === 'notifications/tasks/status' && m.params.taskId === taskId).map((m) => m.params.status);
    expect(statuses).toEqual(['input_required', 'working', 'completed']);
    // The status notifications carry the task in their params, not a related-task _meta.
    expect(server.messages.find((m) => m.method === 'notifications/tasks/status')?.params._meta).toBeUndefined();
  });

  test('bad input is answered with the right error, and the session serves on', async () => {
    const call = legacyCall('b1', 'build_report', { quarter: 'Q3-2026' });
    const badTask = await server.request({ ...call, params: { ...call.params, task: 'yes' } });
    expect(badTask.error).toMatchObject({ code: -32602, message: expect.stringContaining('params.task must be an object') });
    const badTtl = await server.request({ ...call, id: 'b2', params: { ...call.params, task: { ttl: 1.5 } } });
    expect(badTtl.error).toMatchObject({ code: -32602, message: expect.stringContaining('ttl') });
    expect((await server.request({ jsonrpc: '2.0', id: 'b3', method: 'tasks/get', params: {} })).error).toMatchObject({ code: -32602 });
    expect((await server.request({ jsonrpc: '2.0', id: 'b4', method: 'tasks/result', params: { taskId: 'nope' } })).error).toMatchObject({ code: -32602 });
    expect((await server.request({ jsonrpc: '2.0', id: 'b5', method: 'tasks/list', params: { cursor: 'forged' } })).error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('cursor'),
    });
    const list = await server.request({ jsonrpc: '2.0', id: 'b6', method: 'tasks/list', params: {} });
    expect(list.result.tasks.length).toBeGreaterThan(0);
  });
});

describe('a 2025-06-18 stdio session', () => {
  let server: StdioProcess;
  beforeAll(async () => {
    server = StdioProcess.serve('examples/everything/dist/everything.js');
    const init = await openLegacySession(server, { elicitation: {} }, '2025-06-18');
    expect(init.protocolVersion).toBe('2025-06-18');
    expect(init.capabilities.tasks).toBeUndefined();
  });
  afterAll(() => server.kill());

  test('no tasks: tools/list has no execution, task tools run inline (with a task param too, and when required), tasks/* is -32601', async () => {
    const tools = (await server.request({ jsonrpc: '2.0', id: 't0', method: 'tools/list' })).result.tools;
    expect(tools.find((tool: { name: string }) => tool.name === 'slow_compute')).not.toHaveProperty('execution');
    const withTask = await server.request({ ...legacyCall('t1', 'slow_compute'), params: { name: 'slow_compute', arguments: { seconds: 0 }, task: {} } });
    expect(withTask.result).toMatchObject({ content: [{ type: 'text', text: 'Computed the result in 0 s' }] });
    expect(withTask.result).not.toHaveProperty('task');
    const required = await server.request(legacyCall('t2', 'failing_job'));
    expect(required.result).toMatchObject({ isError: true, content: [{ text: 'The job failed: its input data set is empty' }] });
    expect((await server.request({ jsonrpc: '2.0', id: 't3', method: 'tasks/get', params: { taskId: 'x' } })).error).toMatchObject({ code: -32601 });
    expect((await server.request({ jsonrpc: '2.0', id: 't4', method: 'tasks/result', params: { taskId: 'x' } })).error).toMatchObject({ code: -32601 });
    expect((await server.request(legacyCall('t5', 'greet', { name: 'legacy' }))).result.content[0].text).toBe('Hello, legacy!');
  });
});

describe('a 2025-11-25 session over Streamable HTTP (mcp-serve --http)', () => {
  let http: Awaited<ReturnType<typeof serveHttpProcess>>;
  beforeAll(async () => {
    http = await serveHttpProcess(['examples/reports/dist/reports.js', '--http', '--port', '0'], { REPORTS_STEP_MS: '150' });
  });
  afterAll(async () => {
    http.child.kill('SIGTERM');
    await http.exited;
  });

  test('the ask of a task goes on the pending tasks/result stream, not the GET stream; the result ends that stream', async () => {
    const session = await initializeSession(http.url);
    expect(session.result.capabilities.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    const headers = { 'mcp-session-id': session.id };
    const standalone = await OpenStream.get(http.url, session.id);
    const call = legacyToolCall(1, 'build_report', { quarter: 'Q1-2026' }) as { params: object };
    const created = await legacyPost(http.url, { ...call, params: { ...call.params, task: {} } }, headers);
    const { taskId } = created.json.result.task;

    const waiting = await OpenStream.post(http.url, session.id, { jsonrpc: '2.0', id: 2, method: 'tasks/result', params: { taskId } });
    const ask = await waiting.waitFor((event) => event.method === 'elicitation/create');
    expect(ask.params._meta).toEqual({ [RELATED]: { taskId } });
    await legacyPost(http.url, { jsonrpc: '2.0', id: ask.id, result: { action: 'accept', content: { include: false } } }, headers);
    const result = await waiting.waitFor((event) => event.id === 2);
    expect(result.result).toMatchObject({
      content: [{ text: expect.stringMatching(/^Sales report Q1-2026: 8 orders, total/) }],
      _meta: { [RELATED]: { taskId } },
    });
    await waiting.waitForEnd();
    expect(standalone.events().filter((event) => event.method === 'elicitation/create')).toEqual([]);
    standalone.close();
  });
});
