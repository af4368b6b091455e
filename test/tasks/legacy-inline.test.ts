// A legacy (2025-11-25) session's tools/call of a task tool runs inline, as an ordinary call: the
// 2026-07-28 Tasks extension makes no task there (legacy core tasks go in extensions/tasks/legacy/).
import { legacyCall, openLegacySession, StdioProcess } from '@decorum-internal/test-support';

describe('task tools on a legacy stdio session', () => {
  let server: StdioProcess;
  beforeAll(async () => {
    server = StdioProcess.serve('examples/everything/dist/everything.js');
    await openLegacySession(server, { elicitation: {} });
  });
  afterAll(() => server.kill());

  test('an optional task tool answers its result inline, with a task param or without', async () => {
    const plain = await server.request(legacyCall('l1', 'slow_compute', { seconds: 0, label: 'legacy' }));
    expect(plain.result).toMatchObject({ content: [{ type: 'text', text: 'Computed legacy in 0 s' }] });
    expect(plain.result).not.toHaveProperty('task');
    expect(plain.result).not.toHaveProperty('taskId');
    const withTask = await server.request({
      ...legacyCall('l2', 'slow_compute', { seconds: 0 }),
      params: { name: 'slow_compute', arguments: { seconds: 0 }, task: { ttl: 60_000 } },
    });
    expect(withTask.result.content[0].text).toBe('Computed the result in 0 s');
  });

  test('a required task tool runs inline too (its isError result), and the session keeps serving', async () => {
    const required = await server.request(legacyCall('l3', 'failing_job'));
    expect(required.result).toMatchObject({ isError: true, content: [{ text: 'The job failed: its input data set is empty' }] });
    const greet = await server.request(legacyCall('l4', 'greet', { name: 'legacy' }));
    expect(greet.result.content[0].text).toBe('Hello, legacy!');
  });
});
