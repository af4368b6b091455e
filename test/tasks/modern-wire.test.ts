// The Tasks extension on 2026-07-28, over HTTP (Fastify on 127.0.0.1) and stdio (mcp-serve in a
// child process), on the conformance fixtures of examples/everything: the flat CreateTaskResult,
// DetailedTask shapes, isError ⇒ completed, a JSON-RPC error ⇒ failed, cancel wins, input inside a
// task, MRTR before the task, and the gates (-32021, -32601, -32020).
import { rpc } from '../../packages/fastify/test/support/http.js';
import { TaskFixtures } from '../../examples/everything/src/task-fixtures.js';
import { bothWires, createTask, httpWire, isTerminal, pollTask, TASKS_ID, WITH_TASKS, type TaskWire } from './support/task-wire.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const NO_TASKS = { elicitation: {} };

const wires = bothWires([TaskFixtures], 'examples/everything/dist/everything.js');

describe.each(wires)('Tasks on 2026-07-28 over %s', (_name, wireOf) => {
  let wire: TaskWire;
  beforeAll(() => {
    wire = wireOf();
  });

  test('server/discover advertises the extension with settings {} and no core tasks capability', async () => {
    const { result } = await wire.send('server/discover');
    expect(result.capabilities.extensions[TASKS_ID]).toEqual({});
    expect(result.capabilities.tasks).toBeUndefined();
  });

  test('a task call answers a flat CreateTaskResult once stored; tasks/get finds it at once, then completed with the result', async () => {
    const { result } = await wire.send('tools/call', { name: 'slow_compute', arguments: { seconds: 0.3, label: 'wire' } });
    expect(result).toEqual({
      resultType: 'task',
      taskId: expect.stringMatching(/^[\w-]{43}$/), // 256 bits, base64url
      status: 'working',
      createdAt: expect.stringMatching(ISO),
      lastUpdatedAt: expect.stringMatching(ISO),
      ttlMs: 3_600_000,
      pollIntervalMs: 1_000,
      _meta: expect.any(Object),
    });
    const first = await wire.send('tasks/get', { taskId: result.taskId });
    expect(first.result).toMatchObject({ resultType: 'complete', taskId: result.taskId });
    const done = await pollTask(wire, result.taskId, isTerminal);
    expect(done).toMatchObject({ resultType: 'complete', status: 'completed', result: { content: [{ type: 'text', text: 'Computed wire in 0.3 s' }] } });
    for (const key of ['requestState', 'ttl', 'pollInterval', 'inputRequests', 'error']) expect(done).not.toHaveProperty(key);
    expect(done.result.resultType).toBe('complete'); // a whole CallToolResult (the official ext-tasks client requires it)
    expect(done.result._meta?.['io.modelcontextprotocol/related-task']).toBeUndefined();
  });

  test('without the extension an optional tool runs inline; a required one is -32021 naming the extension', async () => {
    const inline = await wire.send('tools/call', { name: 'slow_compute', arguments: { seconds: 0 } }, { capabilities: NO_TASKS });
    expect(inline.result).toMatchObject({ resultType: 'complete', content: [{ text: 'Computed the result in 0 s' }] });
    expect(inline.result.taskId).toBeUndefined();
    const required = await wire.send('tools/call', { name: 'failing_job', arguments: {} }, { capabilities: NO_TASKS });
    expect(required.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS_ID]: {} } } } });
    expect(required.error.message).toContain(TASKS_ID);
  });

  test('a plain tool is never a task, even with the extension and a legacy task param', async () => {
    const { result } = await wire.send('tools/call', { name: 'greet', arguments: { name: 'World' }, task: { ttl: 1000 } });
    expect(result).toMatchObject({ resultType: 'complete', content: [{ text: 'Hello, World!' }] });
  });

  test('isError ⇒ completed with the result; a JSON-RPC error ⇒ failed with the error and no result', async () => {
    const failing = await createTask(wire, 'failing_job');
    const completed = await pollTask(wire, failing, isTerminal);
    expect(completed).toMatchObject({ status: 'completed', result: { isError: true, content: [{ text: 'The job failed: its input data set is empty' }] } });
    const protocol = await createTask(wire, 'protocol_error_job');
    const failed = await pollTask(wire, protocol, isTerminal);
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: 'The job hit an internal error on purpose' },
      statusMessage: expect.any(String),
    });
    expect(failed).not.toHaveProperty('result');
  });

  test('cancel acks empty, the task reads cancelled at once and stays so; a second cancel acks the same', async () => {
    const taskId = await createTask(wire, 'slow_compute', { seconds: 60 });
    const ack = await wire.send('tasks/cancel', { taskId });
    expect(ack.result).toEqual({ resultType: 'complete', _meta: expect.any(Object) });
    expect((await wire.send('tasks/get', { taskId })).result).toMatchObject({ status: 'cancelled' });
    const again = await wire.send('tasks/cancel', { taskId });
    expect(again.result).toEqual(ack.result);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await wire.send('tasks/get', { taskId })).result.status).toBe('cancelled');
  });

  test('asks inside a task: two at once park together; a partial update leaves the other; keys are unique', async () => {
    const taskId = await createTask(wire, 'multi_input');
    const parked = await pollTask(wire, taskId, (t) => t.status === 'input_required' && Object.keys(t.inputRequests).length === 2);
    const [first, second] = Object.keys(parked.inputRequests);
    expect(first).not.toBe(second);
    expect(parked.inputRequests[first!]).toMatchObject({ method: 'elicitation/create', params: { mode: 'form' } });
    const ack = await wire.send('tasks/update', { taskId, inputResponses: { [first!]: { action: 'accept', content: { name: 'one' } } } });
    expect(ack.result).toEqual({ resultType: 'complete', _meta: expect.any(Object) });
    const partial = (await wire.send('tasks/get', { taskId })).result;
    expect(partial.status).toBe('input_required');
    expect(Object.keys(partial.inputRequests)).toEqual([second]);
    await wire.send('tasks/update', { taskId, inputResponses: { [second!]: { action: 'accept', content: { name: 'two' } } } });
    const done = await pollTask(wire, taskId, isTerminal);
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ text: 'Got one and two' }] } });
  });

  test('start: handler — the MRTR round answers first (no task), the retry becomes the task', async () => {
    const round1 = (await wire.send('tools/call', { name: 'test_tool_with_task', arguments: {} })).result;
    expect(round1.resultType).toBe('input_required');
    expect(round1).not.toHaveProperty('taskId');
    const retry = {
      name: 'test_tool_with_task',
      arguments: {},
      requestState: round1.requestState,
      inputResponses: { user_name: { action: 'accept', content: { name: 'Alice' } } },
    };
    const round2 = (await wire.send('tools/call', retry)).result;
    expect(round2).toMatchObject({ resultType: 'task', status: 'working', statusMessage: 'Greeting' });
    expect(round2).not.toHaveProperty('requestState');
    expect(round2).not.toHaveProperty('inputRequests');
    const done = await pollTask(wire, round2.taskId, isTerminal);
    expect(done.result.content[0].text).toBe('Hello, Alice!');
  });

  test('tasks/* from a client without the extension: -32021 before the id is looked up', async () => {
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const params = method === 'tasks/update' ? { taskId: 'gate-test', inputResponses: {} } : { taskId: 'gate-test' };
      const answer = await wire.send(method, params, { capabilities: NO_TASKS });
      expect(answer.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS_ID]: {} } } } });
    }
    expect((await wire.send('tools/call', { name: 'greet', arguments: { name: 'still here' } })).result.content[0].text).toBe('Hello, still here!');
  });

  test('tasks/result and tasks/list do not exist on 2026-07-28: -32601', async () => {
    expect((await wire.send('tasks/result', { taskId: 'x' })).error.code).toBe(-32601);
    expect((await wire.send('tasks/list', {})).error.code).toBe(-32601);
  });
});

describe('Tasks over HTTP: Mcp-Name carries the taskId', () => {
  test('a matching Mcp-Name is served; a different one is -32020 with 400', async () => {
    const url = wires[0]![1]().url!;
    const taskId = await createTask(httpWire(url), 'slow_compute', { seconds: 0 });
    const ok = await rpc(url, 1, 'tasks/get', { taskId }, { capabilities: WITH_TASKS, headers: { 'mcp-name': taskId } });
    expect(ok.json.result.taskId).toBe(taskId);
    const wrong = await rpc(url, 2, 'tasks/get', { taskId }, { capabilities: WITH_TASKS, headers: { 'mcp-name': 'another-task' } });
    expect(wrong.status).toBe(400);
    expect(wrong.json.error.code).toBe(-32020);
  });
});
