import { request, StdioProcess } from '@decorum-internal/test-support';

const FIXTURE = 'packages/stdio/test/fixtures/flush-server.ts';
const later = (id: number, turns: number) => JSON.stringify(request(id, 'tools/call', { name: 'later', arguments: { turns } }, { progressToken: id }));

/** mcp-serve writes answers in batches; nothing may be lost at the end of the process. */
describe('stdio output is flushed', () => {
  test('stdin ending with requests in flight: every answer is written, once, before exit 0', async () => {
    const proc = StdioProcess.serve(FIXTURE);
    const ids = Array.from({ length: 500 }, (_, i) => i);
    proc.child.stdin.end(ids.map((id) => `${later(id, 1 + (id % 4))}\n`).join(''));
    expect(await proc.exit(10_000)).toBe(0);
    const answered = proc.messages.filter((m) => 'id' in m).map((m) => m.id);
    expect(answered.sort((a, b) => a - b)).toEqual(ids);
    for (const m of proc.messages.filter((m) => 'id' in m)) expect(m.result.content[0].text).toBe(`after ${1 + (m.id % 4)}`);
    expect(proc.messages.filter((m) => m.method === 'notifications/progress')).toHaveLength(ids.reduce((sum, id) => sum + 1 + (id % 4), 0));
  });

  test('a client that reads late still gets every answer', async () => {
    const proc = StdioProcess.serve(FIXTURE);
    try {
      await proc.request(request('up', 'server/discover'));
      proc.child.stdout.pause();
      const ids = Array.from({ length: 2000 }, (_, i) => i);
      proc.child.stdin.write(ids.map((id) => `${later(id, 1)}\n`).join(''));
      await new Promise((resolve) => setTimeout(resolve, 300));
      proc.child.stdout.resume();
      await proc.waitFor(() => proc.messages.filter((m) => typeof m.id === 'number').length >= ids.length, 10_000);
      expect(
        proc.messages
          .filter((m) => typeof m.id === 'number')
          .map((m) => m.id)
          .sort((a, b) => a - b),
      ).toEqual(ids);
    } finally {
      proc.kill();
    }
  });

  test('what a handler sent before the process exits in the same turn is still written', async () => {
    const proc = StdioProcess.serve(FIXTURE);
    await proc.request(request('up', 'server/discover'));
    proc.send(request('bye', 'tools/call', { name: 'last_words', arguments: {} }, { progressToken: 'bye' }));
    expect(await proc.exit()).toBe(3);
    expect(proc.messages.find((m) => m.method === 'notifications/progress')?.params).toMatchObject({ progressToken: 'bye', message: 'last words' });
  });
});
