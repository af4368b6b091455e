// notifications/tasks through subscriptions/listen with notifications.taskIds, over HTTP (an SSE
// listen stream on Fastify at 127.0.0.1) and stdio: the ack lists the granted ids (unknown ones
// dropped), each change of a followed task arrives as the full DetailedTask, and asking without the
// extension is -32021.
import { request, StdioProcess } from '@decorum-internal/test-support';
import { startApp, type TestApp } from '../../packages/fastify/test/support/app.js';
import { rpc } from '../../packages/fastify/test/support/http.js';
import { ListenStream } from '../../packages/fastify/test/support/listen-stream.js';
import { TaskTools } from './fixtures/task-tools.js';
import { createTask, httpWire, pollTask, stdioWire, WITH_TASKS } from './support/task-wire.js';

const SUB = 'io.modelcontextprotocol/subscriptionId';
const isTaskNote = (taskId: string, status: string) => (m: any) =>
  m.method === 'notifications/tasks' && m.params.taskId === taskId && m.params.status === status;

describe('notifications/tasks over HTTP', () => {
  let app: TestApp;
  const open: ListenStream[] = [];
  beforeAll(async () => {
    app = await startApp({ servers: [TaskTools] });
  });
  afterAll(async () => {
    for (const stream of open) stream.close();
    await app?.close();
  });

  test('a listen granted a task id gets its changes; an unknown id is left out of the ack', async () => {
    const taskId = await createTask(httpWire(app.url), 'interview');
    const stream = new ListenStream(app.url, 'L1', { taskIds: [taskId, 'no-such-task'] }, { capabilities: WITH_TASKS });
    open.push(stream);
    const ack = await stream.waitForEvent((e) => e.method === 'notifications/subscriptions/acknowledged');
    expect(ack.params.notifications).toEqual({ taskIds: [taskId] });
    const wire = httpWire(app.url);
    await pollTask(wire, taskId, (task) => task.status === 'input_required');
    await wire.send('tasks/update', { taskId, inputResponses: { who: { action: 'accept', content: { name: 'Ada' } } } });
    const parked = await stream.waitForEvent((m) => isTaskNote(taskId, 'input_required')(m) && 'line' in m.params.inputRequests);
    expect(parked.params).toMatchObject({
      taskId,
      status: 'input_required',
      inputRequests: { line: { method: 'sampling/createMessage' } },
      _meta: { [SUB]: 'L1' },
    });
    await wire.send('tasks/cancel', { taskId });
    const cancelled = await stream.waitForEvent(isTaskNote(taskId, 'cancelled'));
    expect(cancelled.params).not.toHaveProperty('requestState');
  });

  test('taskIds without the extension: -32021', async () => {
    const refused = await rpc(app.url, 'L2', 'subscriptions/listen', { notifications: { taskIds: ['x'] } }, { capabilities: {} });
    const answer = refused.json ?? refused.events.find((event: any) => event.error);
    expect(answer.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } } });
  });
});

describe('notifications/tasks over stdio', () => {
  let server: StdioProcess;
  beforeAll(() => {
    server = StdioProcess.serve('test/tasks/fixtures/task-tools.ts');
  });
  afterAll(() => server.kill());

  test('the followed task’s changes arrive tagged with the listen; -32021 without the extension', async () => {
    const wire = stdioWire(server);
    const taskId = await createTask(wire, 'interview');
    server.send(request('L3', 'subscriptions/listen', { notifications: { taskIds: [taskId] } }, { capabilities: WITH_TASKS }));
    const ack = await server.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged' && m.params._meta[SUB] === 'L3');
    expect(ack.params.notifications).toEqual({ taskIds: [taskId] });
    await wire.send('tasks/cancel', { taskId });
    const cancelled = await server.waitFor(isTaskNote(taskId, 'cancelled'));
    expect(cancelled.params._meta[SUB]).toBe('L3');
    const refused = await server.request(request('L4', 'subscriptions/listen', { notifications: { taskIds: [taskId] } }, { capabilities: {} }));
    expect(refused.error.code).toBe(-32021);
  });
});
