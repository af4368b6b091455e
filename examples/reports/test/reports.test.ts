// The reports example served by mcp-serve over stdio: build_report runs as a task, reports its
// progress as statusMessage, parks half-way for the drafts question, resumes on tasks/update, and
// stops when cancelled. Without the extension it is an ordinary (long) call.
import { request, StdioProcess } from '@decorum-internal/test-support';

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} }, elicitation: {} };
let ids = 0;

describe('examples/reports over stdio', () => {
  let server: StdioProcess;
  beforeAll(() => {
    server = StdioProcess.serve('examples/reports/dist/reports.js', [], { REPORTS_STEP_MS: '150' });
  });
  afterAll(() => server.kill());

  const send = (method: string, params: Record<string, unknown>, capabilities: Record<string, unknown> = TASKS) =>
    server.request(request(`r${++ids}`, method, params, { capabilities }));
  const get = async (taskId: string) => (await send('tasks/get', { taskId })).result;
  const until = async (taskId: string, ok: (task: Record<string, any>) => boolean, seen: string[] = []) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const task = await get(taskId);
      if (task.statusMessage && seen.at(-1) !== task.statusMessage) seen.push(task.statusMessage);
      if (ok(task)) return task;
      if (Date.now() > deadline) throw new Error(`stuck: ${JSON.stringify(task)}`);
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
  };

  test('a task: progress, the drafts question half-way, then the report', async () => {
    const created = (await send('tools/call', { name: 'build_report', arguments: { quarter: 'Q3-2026' } })).result;
    expect(created).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 600_000, pollIntervalMs: 500 });
    const seen: string[] = [];
    const parked = await until(created.taskId, (task) => task.status === 'input_required', seen);
    expect(seen[0]).toMatch(/^collecting /);
    const [key, ask] = Object.entries(parked.inputRequests as Record<string, any>)[0]!;
    expect(ask.params.message).toBe('12 orders collected, 4 of them drafts. Count the drafts?');
    await send('tasks/update', { taskId: created.taskId, inputResponses: { [key]: { action: 'accept', content: { include: false } } } });
    const done = await until(created.taskId, (task) => task.status === 'completed');
    expect(done.result.content[0].text).toMatch(/^Sales report Q3-2026: 8 orders, total \d+$/);
  });

  test('a cancel stops it mid-way', async () => {
    const created = (await send('tools/call', { name: 'build_report', arguments: { quarter: 'Q1-2027' } })).result;
    await send('tasks/cancel', { taskId: created.taskId });
    expect((await get(created.taskId)).status).toBe('cancelled');
  });

  test('without the extension: an ordinary call (which still needs the drafts answer, as an MRTR round)', async () => {
    const answer = (await send('tools/call', { name: 'build_report', arguments: { quarter: 'Q2-2026' } }, { elicitation: {} })).result;
    expect(answer.resultType).toBe('input_required');
    expect(answer).not.toHaveProperty('taskId');
  });
});
