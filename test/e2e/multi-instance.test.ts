import { randomBytes } from 'node:crypto';
import { rpc } from '../../packages/fastify/test/support/http.js';
import { serveHttpProcess } from '../../packages/fastify/test/support/cli-process.js';
import { ListenStream } from '../../packages/fastify/test/support/listen-stream.js';
import { fixture, startRedis, type TestRedis } from '@decorum-internal/test-support';

const SUB = 'io.modelcontextprotocol/subscriptionId';
const FIXTURE = fixture('cluster-server.ts');
const ELICIT = { capabilities: { elicitation: {} } };

type Instance = Awaited<ReturnType<typeof serveHttpProcess>>;

const call = async (url: string, id: string, name: string, args: Record<string, unknown> = {}) => {
  const res = await rpc(url, id, 'tools/call', { name, arguments: args });
  if (res.json?.result?.isError || res.json?.error) throw new Error(`${name} failed: ${res.text}`);
  return res.json.result;
};
const toolNames = async (url: string, id: string) => ((await rpc(url, id, 'tools/list')).json.result.tools as Array<{ name: string }>).map((t) => t.name);
const stats = async (url: string, id: string) => JSON.parse((await call(url, id, 'bus_stats')).content[0].text);
const listChanged = (id: string | number) => (e: any) => e.method === 'notifications/tools/list_changed' && e.params._meta[SUB] === id;

/**
 * Two `mcp-serve --http` processes on different ports sharing one local Redis (`--bus`) and one
 * `DECORUM_STATE_KEYS`: what a client sees does not depend on which instance it reaches.
 */
describe('two instances on one Redis bus', () => {
  let redis: TestRedis;
  let a: Instance;
  let b: Instance;
  const open: ListenStream[] = [];
  const listenOn = async (instance: Instance, id: string | number, notifications: Record<string, unknown>) => {
    const stream = new ListenStream(instance.url, id, notifications);
    open.push(stream);
    await stream.waitFor(() => stream.events.length > 0);
    expect(stream.events[0]).toMatchObject({ method: 'notifications/subscriptions/acknowledged', params: { _meta: { [SUB]: id } } });
    return stream;
  };

  beforeAll(async () => {
    redis = await startRedis();
    const env = { DECORUM_STATE_KEYS: randomBytes(32).toString('base64') };
    [a, b] = await Promise.all([
      serveHttpProcess([FIXTURE, '--http', '--port', '0', '--bus', redis.url], env),
      serveHttpProcess([FIXTURE, '--http', '--port', '0'], { ...env, DECORUM_BUS_URL: redis.url }),
    ]);
  }, 60_000); // two mcp-serve compiling .ts and redis: generous on a busy machine

  afterEach(() => {
    for (const stream of open.splice(0)) stream.close();
  });

  afterAll(async () => {
    for (const instance of [a, b]) instance?.child.kill('SIGKILL');
    await redis?.stop();
  });

  test('they are two processes on two ports', async () => {
    expect(a.url).not.toBe(b.url);
    expect((await call(a.url, 'w1', 'whoami')).content[0].text).not.toBe((await call(b.url, 'w2', 'whoami')).content[0].text);
  });

  test('a tools change on A reaches the listeners on B, each tagged with its own subscription id, and B then lists what A lists', async () => {
    const first = await listenOn(b, 'b-listen', { toolsListChanged: true });
    const second = await listenOn(b, 7, { toolsListChanged: true });
    const onA = await listenOn(a, 'a-listen', { toolsListChanged: true });
    await call(a.url, 'c1', 'set_deploy', { enabled: false });
    expect(await first.waitForEvent(listChanged('b-listen'))).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
      params: { _meta: { [SUB]: 'b-listen' } },
    });
    expect(await second.waitForEvent(listChanged(7))).toBeDefined();
    await onA.waitForEvent(listChanged('a-listen'));
    const onB = await toolNames(b.url, 'l1');
    expect(onB).not.toContain('deploy');
    expect(onB).toEqual(await toolNames(a.url, 'l2'));

    // An add of a catalogue class replicates by name too.
    await call(a.url, 'c2', 'add_reports');
    await first.waitFor(() => first.events.filter(listChanged('b-listen')).length === 2);
    expect(await toolNames(b.url, 'l3')).toContain('report_today');
    expect(await toolNames(b.url, 'l4')).toEqual(await toolNames(a.url, 'l5'));
    expect((await call(b.url, 'c3', 'report_today')).content[0].text).toBe('all green');

    // And back, from B this time; exactly one notification per change on each stream.
    await call(b.url, 'c4', 'set_deploy', { enabled: true });
    await onA.waitFor(() => onA.events.filter(listChanged('a-listen')).length === 3);
    expect(await toolNames(a.url, 'l6')).toContain('deploy');
    await new Promise((r) => setTimeout(r, 200));
    expect(first.events.filter(listChanged('b-listen'))).toHaveLength(3);
    expect(second.events.filter(listChanged(7))).toHaveLength(3);
  });

  test('a resource update on A reaches the resource listener on B', async () => {
    const watcher = await listenOn(b, 'notes', { resourceSubscriptions: ['notes://{id}'] });
    await call(a.url, 'r1', 'touch', { uri: 'notes://42' });
    expect(await watcher.waitForEvent((e) => e.method === 'notifications/resources/updated')).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: 'notes://42', _meta: { [SUB]: 'notes' } },
    });
  });

  test('an elicitation round started on A completes on B', async () => {
    const first = (await rpc(a.url, 'e1', 'tools/call', { name: 'welcome', arguments: { name: 'Ada' } }, ELICIT)).json.result;
    expect(first).toMatchObject({ resultType: 'input_required', requestState: expect.any(String) });
    const [key] = Object.keys(first.inputRequests);
    const second = await rpc(
      b.url,
      'e2',
      'tools/call',
      { name: 'welcome', arguments: { name: 'Ada' }, requestState: first.requestState, inputResponses: { [key]: { action: 'accept', content: { ok: true } } } },
      ELICIT,
    );
    expect(second.json.result.content[0].text).toBe(`Hello, Ada (from pid ${b.child.pid})`);
  });

  test('Redis killed and restarted: no later notification is lost and nothing is left behind', async () => {
    const listener = await listenOn(b, 'outage', { toolsListChanged: true });
    await redis.kill();
    // A change while Redis is down: A buffers it, and B catches up once both are back.
    await call(a.url, 'k1', 'set_deploy', { enabled: false });
    // (A write already on its way when the connection went comes back to the outbox too.)
    const buffering = Date.now() + 10_000;
    while ((await stats(a.url, 's1')).buffered !== 1) {
      if (Date.now() > buffering) throw new Error('A did not buffer the change');
      await new Promise((r) => setTimeout(r, 50));
    }
    await redis.start();
    await listener.waitFor(() => listener.events.filter(listChanged('outage')).length === 1, 20_000);
    expect(await toolNames(b.url, 'k2')).not.toContain('deploy');
    // A change after the restart.
    const deadline = Date.now() + 20_000;
    while (!((await stats(a.url, 's2')).connected && (await stats(b.url, 's3')).connected)) {
      if (Date.now() > deadline) throw new Error('the buses did not reconnect');
      await new Promise((r) => setTimeout(r, 100));
    }
    await call(a.url, 'k3', 'set_deploy', { enabled: true });
    await listener.waitFor(() => listener.events.filter(listChanged('outage')).length === 2, 10_000);
    expect(await toolNames(b.url, 'k4')).toEqual(await toolNames(a.url, 'k5'));
    // Each change exactly once: the catch-up and the channel never both deliver one.
    await new Promise((r) => setTimeout(r, 200));
    expect(listener.events.filter(listChanged('outage'))).toHaveLength(2);
    // Nothing queued, held or half-open: one subscription on B (this listener), none on A.
    expect(await stats(a.url, 's4')).toMatchObject({ connected: true, buffered: 0, dropped: 0, held: 0, subscriptions: 0 });
    expect(await stats(b.url, 's5')).toMatchObject({ connected: true, buffered: 0, dropped: 0, held: 0, subscriptions: 1 });
    listener.close();
    const closedAt = Date.now() + 5000;
    while ((await stats(b.url, 's6')).subscriptions !== 0) {
      if (Date.now() > closedAt) throw new Error('the closed listen was not released');
      await new Promise((r) => setTimeout(r, 50));
    }
  }, 60_000);
});
