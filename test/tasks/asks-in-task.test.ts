// `ctx.elicit`, `ctx.sample`, `ctx.roots` and `ctx.once` inside a task, over HTTP and stdio: each
// ask parks the task in input_required, tasks/update resumes the handler where it waited (a counter
// proves it never ran twice), ctx.progress becomes the statusMessage, and a cancel aborts ctx.signal.
import { TaskTools } from './fixtures/task-tools.js';
import { bothWires, createTask, isTerminal, pollTask, type TaskWire } from './support/task-wire.js';

const wires = bothWires([TaskTools], 'test/tasks/fixtures/task-tools.ts');

const stats = async (wire: TaskWire) => JSON.parse((await wire.send('tools/call', { name: 'task_stats', arguments: {} })).result.content[0].text);
const parkedOn = (key: string) => (task: Record<string, any>) => task.status === 'input_required' && key in task.inputRequests;

describe.each(wires)('asks inside a task over %s', (_name, wireOf) => {
  let wire: TaskWire;
  beforeAll(() => {
    wire = wireOf();
  });

  test('elicit, sample and roots each park the task; tasks/update resumes the handler in place (no re-run)', async () => {
    const before = (await stats(wire)).starts.interview ?? 0;
    const taskId = await createTask(wire, 'interview');
    const who = await pollTask(wire, taskId, parkedOn('who'));
    expect(who.inputRequests.who).toMatchObject({ method: 'elicitation/create', params: { message: 'Your name?' } });
    expect(who.statusMessage).toBe('asking the name');
    await wire.send('tasks/update', { taskId, inputResponses: { who: { action: 'accept', content: { name: 'Ada' } } } });
    const line = await pollTask(wire, taskId, parkedOn('line'));
    expect(line.inputRequests).toEqual({ line: expect.objectContaining({ method: 'sampling/createMessage' }) });
    await wire.send('tasks/update', { taskId, inputResponses: { line: { role: 'assistant', content: { type: 'text', text: 'hello' }, model: 'test' } } });
    await pollTask(wire, taskId, parkedOn('roots'));
    await wire.send('tasks/update', { taskId, inputResponses: { roots: { roots: [{ uri: 'file:///work' }] } } });
    const done = await pollTask(wire, taskId, isTerminal);
    expect(done.status).toBe('completed');
    expect(done.result.content[0].text).toMatch(/^Ada\|hello\|file:\/\/\/work\|once=\d+$/);
    const after = await stats(wire);
    expect(after.starts.interview).toBe(before + 1);
  });

  test('ctx.progress becomes the task statusMessage while it works', async () => {
    const taskId = await createTask(wire, 'progress_job');
    const working = await pollTask(wire, taskId, (t) => t.statusMessage === 'halfway there');
    expect(working.status).toBe('working');
    const done = await pollTask(wire, taskId, isTerminal);
    expect(done.result.content[0].text).toBe('progress_job done');
  });

  test('tasks/cancel aborts the handler ctx.signal; the task stays cancelled', async () => {
    const abortsBefore = (await stats(wire)).aborts.length;
    const taskId = await createTask(wire, 'wait_for_cancel');
    await pollTask(wire, taskId, () => true);
    await wire.send('tasks/cancel', { taskId });
    const deadline = Date.now() + 5000;
    let aborts: string[] = [];
    while (Date.now() < deadline && aborts.length === abortsBefore) {
      aborts = (await stats(wire)).aborts;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(aborts.slice(abortsBefore)).toEqual([expect.stringMatching(/cancelled/)]);
    expect((await wire.send('tasks/get', { taskId })).result.status).toBe('cancelled');
  });

  test('the TTL aborts a running handler ctx.signal, and the task is gone', async () => {
    const abortsBefore = (await stats(wire)).aborts.length;
    const taskId = await createTask(wire, 'outlive_ttl');
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect((await stats(wire)).aborts.slice(abortsBefore)).toEqual([expect.stringMatching(/TTL/)]);
    expect((await wire.send('tasks/get', { taskId })).error.code).toBe(-32602);
  });
});
