// Bad input to the Tasks extension, each answered with the right JSON-RPC error (or the ack the
// spec asks for) and followed by a good call on the same server: over HTTP and stdio, plus another
// principal's task id with real signed tokens (HTTP with OAuth), and a task store that is down.
import { startApp, type TestApp } from '../../packages/fastify/test/support/app.js';
import { StdioProcess } from '@decorum-internal/test-support';
import { AuthServerFixture } from '../../packages/fastify/test/support/auth-fixture.js';
import { TaskTools } from './fixtures/task-tools.js';
import { DownTaskStore } from './fixtures/down-task-store.js';
import { StoreDown } from './fixtures/failing-store-server.js';
import { bothWires, createTask, httpWire, isTerminal, pollTask, stdioWire, type TaskWire } from './support/task-wire.js';

const UNKNOWN = { code: -32602, message: 'Invalid params: task not found or expired (taskId)' };

const wires = bothWires([TaskTools], 'test/tasks/fixtures/task-tools.ts');

/** A good call after the bad one: the server still serves. */
const stillServes = async (wire: TaskWire) => {
  const { result } = await wire.send('tools/call', { name: 'task_stats', arguments: {} });
  expect(result.isError).toBeFalsy();
  expect(JSON.parse(result.content[0].text)).toHaveProperty('starts');
};

describe.each(wires)('bad input to tasks over %s', (_name, wireOf) => {
  let wire: TaskWire;
  beforeAll(() => {
    wire = wireOf();
  });

  test('an unknown id: -32602', async () => {
    expect((await wire.send('tasks/get', { taskId: 'no-such-task' })).error).toEqual(UNKNOWN);
    expect((await wire.send('tasks/cancel', { taskId: 'no-such-task' })).error).toEqual(UNKNOWN);
    expect((await wire.send('tasks/update', { taskId: 'no-such-task', inputResponses: {} })).error).toEqual(UNKNOWN);
    await stillServes(wire);
  });

  test('an expired id: -32602, the same as unknown', async () => {
    const taskId = await createTask(wire, 'quick_expiry');
    expect((await pollTask(wire, taskId, isTerminal)).status).toBe('completed');
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect((await wire.send('tasks/get', { taskId })).error).toEqual(UNKNOWN);
    await stillServes(wire);
  });

  test('params that are not the method’s: -32602 naming the field', async () => {
    const answer = await wire.send('tasks/update', { taskId: 'some-task', inputResponses: 'yes' });
    expect(answer.error.code).toBe(-32602);
    expect(answer.error.message).toContain('inputResponses');
    await stillServes(wire);
  });

  test('update keys that are unknown or already answered are acked; a malformed answer is -32602', async () => {
    const taskId = await createTask(wire, 'interview');
    await pollTask(wire, taskId, (t) => t.status === 'input_required');
    const unknown = await wire.send('tasks/update', { taskId, inputResponses: { 'unknown-key': { action: 'accept' } } });
    expect(unknown.result.resultType).toBe('complete');
    const malformed = await wire.send('tasks/update', { taskId, inputResponses: { who: { action: 'accept', content: { name: 7 } } } });
    expect(malformed.error.code).toBe(-32602);
    expect(malformed.error.message).toContain('inputResponses["who"]');
    const notAnAnswer = await wire.send('tasks/update', { taskId, inputResponses: { who: { yes: true } } });
    expect(notAnAnswer.error.code).toBe(-32602);
    await wire.send('tasks/update', { taskId, inputResponses: { who: { action: 'accept', content: { name: 'Ada' } } } });
    await pollTask(wire, taskId, (t) => t.status === 'input_required' && 'line' in t.inputRequests);
    const answered = await wire.send('tasks/update', { taskId, inputResponses: { who: { action: 'accept', content: { name: 'Eve' } } } });
    expect(answered.result.resultType).toBe('complete');
    expect(Object.keys((await wire.send('tasks/get', { taskId })).result.inputRequests)).toEqual(['line']);
    await wire.send('tasks/cancel', { taskId });
    await stillServes(wire);
  });

  test('cancel twice: both acked, the task cancelled', async () => {
    const taskId = await createTask(wire, 'wait_for_cancel');
    expect((await wire.send('tasks/cancel', { taskId })).result.resultType).toBe('complete');
    expect((await wire.send('tasks/cancel', { taskId })).result.resultType).toBe('complete');
    expect((await wire.send('tasks/get', { taskId })).result.status).toBe('cancelled');
    await stillServes(wire);
  });

  test('tasks/result and tasks/list: -32601', async () => {
    expect((await wire.send('tasks/result', { taskId: 'x' })).error.code).toBe(-32601);
    expect((await wire.send('tasks/list', {})).error.code).toBe(-32601);
    await stillServes(wire);
  });
});

describe('another principal’s task id (HTTP with OAuth, real signed tokens)', () => {
  const RESOURCE = 'https://mcp.example.test/mcp';
  let as: AuthServerFixture;
  let authed: TestApp;
  beforeAll(async () => {
    as = await AuthServerFixture.start(RESOURCE);
    authed = await startApp({ servers: [TaskTools], auth: { resource: RESOURCE, authorizationServers: [as.issuer], jwt: { jwks: as.jwks } } });
  });
  afterAll(async () => {
    await authed?.close();
    await as?.close();
  });

  test("bob gets alice's task exactly like an unknown one, for get, update and cancel; alice still can", async () => {
    const wire = httpWire(authed.url);
    const alice = { token: await as.token({ sub: 'alice' }) };
    const bob = { token: await as.token({ sub: 'bob' }) };
    const taskId = await createTask(wire, 'wait_for_cancel', {}, alice);
    expect((await wire.send('tasks/get', { taskId }, bob)).error).toEqual(UNKNOWN);
    expect((await wire.send('tasks/update', { taskId, inputResponses: {} }, bob)).error).toEqual(UNKNOWN);
    expect((await wire.send('tasks/cancel', { taskId }, bob)).error).toEqual(UNKNOWN);
    expect((await wire.send('tasks/get', { taskId }, alice)).result.status).toBe('working');
    const otherClient = { token: await as.token({ sub: 'alice', client_id: 'another-client' }) };
    expect((await wire.send('tasks/get', { taskId }, otherClient)).error).toEqual(UNKNOWN);
    expect((await wire.send('tasks/cancel', { taskId }, alice)).result.resultType).toBe('complete');
  });
});

describe('a task store that is down', () => {
  let down: TestApp;
  let downStdio: StdioProcess;
  beforeAll(async () => {
    down = await startApp({ servers: [StoreDown], taskStore: new DownTaskStore() });
    downStdio = StdioProcess.serve('test/tasks/fixtures/failing-store-server.ts');
  });
  afterAll(async () => {
    downStdio?.kill();
    await down?.close();
  });

  test.each([
    ['HTTP', () => httpWire(down.url)],
    ['stdio', () => stdioWire(downStdio)],
  ])('over %s: the task call fails -32603 with no task id; plain tools keep serving', async (_name, wireOf) => {
    const wire = wireOf();
    const answer = await wire.send('tools/call', { name: 'job', arguments: {} });
    expect(answer.result).toBeUndefined();
    expect(answer.error).toEqual({ code: -32603, message: 'Task store unavailable: the call was not started' });
    expect((await wire.send('tools/call', { name: 'ping', arguments: {} })).result.content[0].text).toBe('pong');
  });
});
