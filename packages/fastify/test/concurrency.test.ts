import { rpc } from './support/http.js';
import { startApp, type TestApp } from './support/app.js';
import { FixtureServer } from './support/fixture-server.js';

/** Many requests in flight at once, each answered with its own result (stateless serving). */
describe('concurrency', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ servers: [FixtureServer] });
  });
  afterAll(() => t.close());

  test('200 concurrent calls, JSON and SSE mixed, are all answered correctly', async () => {
    const calls = Array.from({ length: 200 }, (_, i) => {
      if (i % 4 === 3) {
        return rpc(t.url, `slow-${i}`, 'tools/call', { name: 'slow', arguments: { steps: 2, delayMs: 5 } }, { progressToken: `p-${i}` }).then((res) => {
          expect(res.events.filter((e) => e.method === 'notifications/progress').every((e) => e.params.progressToken === `p-${i}`)).toBe(true);
          return { id: res.events.at(-1).id, text: res.events.at(-1).result.content[0].text, expected: 'done after 2 steps', wanted: `slow-${i}` };
        });
      }
      const text = `message ${i} ${'·'.repeat(i % 7)}`;
      return rpc(t.url, i, 'tools/call', { name: 'echo', arguments: { text } }).then((res) => ({
        id: res.json.id,
        text: res.json.result.content[0].text,
        expected: text,
        wanted: i,
      }));
    });
    const results = await Promise.all(calls);
    expect(results).toHaveLength(200);
    for (const r of results) {
      expect(r.id).toBe(r.wanted);
      expect(r.text).toBe(r.expected);
    }
  });
});
