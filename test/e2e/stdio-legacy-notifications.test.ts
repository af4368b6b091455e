import { fixture, legacyCall, openLegacySession, StdioProcess } from '@decorum-internal/test-support';

/**
 * The session-level switches of a legacy stdio session, against a real mcp-serve process on the
 * live fixture: `logging/setLevel` decides which `ctx.log` entries reach the client as
 * `notifications/message`, and `resources/subscribe` / `unsubscribe` decide which
 * `notifications/resources/updated` it gets. Absence is judged by order: a request's
 * notifications are written before its answer, and the bus delivers updates in order.
 */
describe('legacy notifications over stdio', () => {
  let server: StdioProcess;
  beforeEach(async () => {
    server = StdioProcess.serve(fixture('live-server.ts'));
    await openLegacySession(server);
  });
  afterEach(async () => {
    server.child.stdin.end();
    await server.exit();
  });

  /** The log notifications written for the call with `id`, which has answered. */
  async function logsOfCall(id: string) {
    const answer = await server.request(legacyCall(id, 'chatty'));
    expect(answer.result.content[0].text).toBe('chatted');
    const before = server.messages.slice(0, server.messages.indexOf(answer));
    const previous = before.findLastIndex((m) => m.id !== undefined && m.id !== id);
    return before.slice(previous + 1).filter((m) => m.method === 'notifications/message');
  }

  test('notifications/message flows only once logging/setLevel asked for it, from that level up', async () => {
    expect(await logsOfCall('quiet')).toEqual([]);
    expect((await server.request({ jsonrpc: '2.0', id: 'warn', method: 'logging/setLevel', params: { level: 'warning' } })).result).toEqual({});
    expect(await logsOfCall('still-quiet')).toEqual([]);
    expect((await server.request({ jsonrpc: '2.0', id: 'info', method: 'logging/setLevel', params: { level: 'info' } })).result).toEqual({});
    expect(await logsOfCall('heard')).toEqual([
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', logger: 'live-fixture', data: 'working' } },
    ]);
  });

  test('notifications/resources/updated reaches the client for subscribed URIs only, until it unsubscribes', async () => {
    const touch = (id: string, uri: string) => server.request(legacyCall(id, 'touch', { uri }));
    const updated = (uri: string) => server.messages.filter((m) => m.method === 'notifications/resources/updated' && m.params.uri === uri);
    expect((await server.request({ jsonrpc: '2.0', id: 'sub', method: 'resources/subscribe', params: { uri: 'notes://index' } })).result).toEqual({});
    await touch('t1', 'notes://7');
    await touch('t2', 'notes://index');
    expect(await server.waitFor((m) => m.method === 'notifications/resources/updated')).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: 'notes://index' },
    });
    expect(updated('notes://7')).toEqual([]);

    await server.request({ jsonrpc: '2.0', id: 'unsub', method: 'resources/unsubscribe', params: { uri: 'notes://index' } });
    await server.request({ jsonrpc: '2.0', id: 'sub-7', method: 'resources/subscribe', params: { uri: 'notes://7' } });
    await touch('t3', 'notes://index');
    await touch('t4', 'notes://7');
    await server.waitFor((m) => m.method === 'notifications/resources/updated' && m.params.uri === 'notes://7');
    expect(updated('notes://index')).toHaveLength(1);
  });
});
