import 'reflect-metadata';
import { defineExtension, MissingRequiredClientCapabilityError, McpServer, Tool, toolOption, type ExtensionHost, type ToolContext } from '@decorum/core';
import { request } from '@decorum-internal/test-support';
import { capturingLogger, harness } from '../support/engine-harness.js';
import { legacySession } from '../support/legacy-session.js';

const SUB = 'io.modelcontextprotocol/subscriptionId';
const json = (value: unknown) => JSON.parse(JSON.stringify(value)) as Record<string, any>;
const tick = () => new Promise((resolve) => setImmediate(resolve));

@McpServer({ name: 'traffic', version: '1.0.0' })
class Talkative {
  @Tool({ input: null })
  chatty(_args: unknown, ctx: ToolContext) {
    ctx.progress(1, 2, 'secret: 42');
    ctx.progress(2, 2, 'drop me');
    return 'ok';
  }
}

@McpServer({ name: 'flavoured', version: '1.0.0' })
class Flavoured extends Talkative {
  @Tool({ input: null, flavour: 'sweet' } as never)
  flavoured() {
    return 'yum';
  }
}

describe('outbound steps', () => {
  const redact = defineExtension({
    id: 'com.example/redact',
    outbound: (notification, call) => {
      const message = notification.params?.message;
      if (message === 'drop me') return undefined;
      if (typeof message === 'string')
        return { ...notification, params: { ...notification.params, message: `${call.method}: ${message.replace(/\d+/g, '#')}` } };
      return notification;
    },
  });

  test("change or drop a request's notifications", async () => {
    const { call } = harness([Talkative], { extensions: [redact] });
    const seen: any[] = [];
    await call(request(1, 'tools/call', { name: 'chatty' }, { progressToken: 't' }), seen);
    expect(seen.map((n) => n.params.message)).toEqual(['tools/call: secret: #']);
  });

  test("in a legacy session too (a request's progress)", async () => {
    const s = legacySession([Talkative], { extensions: [redact] });
    await s.init();
    await s.request('tools/call', { name: 'chatty', _meta: { progressToken: 'p' } });
    expect(s.notified.map((n) => n.params?.message)).toEqual(['tools/call: secret: #']);
  });

  test('without an outbound step, notifications go out as they are', async () => {
    const { call } = harness([Talkative]);
    const seen: any[] = [];
    await call(request(1, 'tools/call', { name: 'chatty' }, { progressToken: 't' }), seen);
    expect(seen.map((n) => n.params.message)).toEqual(['secret: 42', 'drop me']);
  });
});

describe('client notifications', () => {
  const heard: Array<{ params: unknown; sessionId: unknown }> = [];
  const listener = defineExtension({
    id: 'com.example/listener',
    notifications: {
      'notifications/com.example/ping': { run: (params, from) => void heard.push({ params, sessionId: from.sessionId }) },
      'notifications/com.example/fail': {
        run: () => {
          throw new Error('broken handler');
        },
      },
      'notifications/com.example/reject': { run: async () => Promise.reject(new Error('rejected handler')) },
      'notifications/com.example/modern': { eras: 'modern', run: () => void heard.push({ params: 'modern', sessionId: undefined }) },
    },
  });

  test('are routed to their extension; a failing handler is logged and the server keeps serving', async () => {
    heard.length = 0;
    const { logger, lines } = capturingLogger('info');
    const { server, call } = harness([Talkative], { extensions: [listener], logger });
    const n = (method: string, params = {}) => ({ jsonrpc: '2.0', method, params });
    expect(server.engine.notification(n('notifications/com.example/ping', { a: 1 }) as never, true)).toBe(true);
    expect(server.engine.notification(n('notifications/com.example/fail') as never, true)).toBe(true);
    expect(server.engine.notification(n('notifications/com.example/reject') as never, true)).toBe(true);
    expect(server.engine.notification(n('notifications/unknown') as never, true)).toBe(false);
    await tick();
    expect(heard).toEqual([{ params: { a: 1 }, sessionId: undefined }]);
    expect(lines.filter((l) => l.msg === 'an extension failed to handle a client notification').map((l) => [l.method, l.err.message])).toEqual([
      ['notifications/com.example/fail', 'broken handler'],
      ['notifications/com.example/reject', 'rejected handler'],
    ]);
    expect((await call(request(1, 'tools/call', { name: 'chatty' })))?.result.content[0].text).toBe('ok');
  });

  test('reach extensions from a legacy session, in their eras only', async () => {
    heard.length = 0;
    const s = legacySession([Talkative], { extensions: [listener] });
    await s.init();
    s.legacy.handleNotification({ jsonrpc: '2.0', method: 'notifications/com.example/ping', params: { b: 2 } });
    s.legacy.handleNotification({ jsonrpc: '2.0', method: 'notifications/com.example/modern', params: {} });
    await tick();
    expect(heard).toEqual([{ params: { b: 2 }, sessionId: undefined }]);
  });
});

describe('listen filters and host.publish', () => {
  let host: ExtensionHost | undefined;
  const jobs = defineExtension({
    id: 'com.example/jobs',
    install: (h) => void (host = h),
    listen: {
      field: 'jobIds',
      method: 'notifications/com.example/job',
      grant(requested, call) {
        if (call.ctx.client.extensions['com.example/jobs'] === undefined)
          throw new MissingRequiredClientCapabilityError('jobIds needs the client extension com.example/jobs', { extensions: { 'com.example/jobs': {} } });
        // The caller follows only the jobs it may see: ids starting with "mine-".
        return (requested as string[]).filter((id) => id.startsWith('mine-'));
      },
    },
  });
  const declared = { extensions: { 'com.example/jobs': {} } };

  function listen(server: ReturnType<typeof harness>['server'], id: string, notifications: object, capabilities: Record<string, unknown> = declared) {
    const seen: Array<Record<string, any>> = [];
    const controller = new AbortController();
    const response = Promise.resolve(
      server.engine.handle(request(id, 'subscriptions/listen', { notifications }, { capabilities }), {
        signal: controller.signal,
        notify: (n) => seen.push(json(n)),
      }),
    ).then((r) => (r === undefined ? undefined : json(r)));
    return { seen, response, cancel: () => controller.abort() };
  }

  test('the ack lists the granted keys; published events reach the streams granted their key', async () => {
    const { server } = harness([Talkative], { extensions: [jobs] });
    const l = listen(server, 'L1', { toolsListChanged: true, jobIds: ['mine-1', 'theirs-2'] });
    const other = listen(server, 'L2', { toolsListChanged: true });
    await tick();
    expect(l.seen[0]?.params.notifications).toEqual({ toolsListChanged: true, jobIds: ['mine-1'] });
    expect(other.seen[0]?.params.notifications).toEqual({ toolsListChanged: true });
    host!.publish('notifications/com.example/job', 'mine-1', { id: 'mine-1', status: 'done' });
    host!.publish('notifications/com.example/job', 'theirs-2', { id: 'theirs-2', status: 'done' });
    await tick();
    expect(l.seen.slice(1)).toEqual([
      { jsonrpc: '2.0', method: 'notifications/com.example/job', params: { id: 'mine-1', status: 'done', _meta: { [SUB]: 'L1' } } },
    ]);
    expect(other.seen).toHaveLength(1);
    server.closeSubscriptions();
    await l.response;
    await other.response;
  });

  test('a grant that throws refuses the listen with its error', async () => {
    const { server } = harness([Talkative], { extensions: [jobs] });
    const l = listen(server, 'L3', { jobIds: ['mine-1'] }, {});
    const response = await l.response;
    expect(response?.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { 'com.example/jobs': {} } } } });
    expect(l.seen).toEqual([]);
  });

  test('legacy sessions never receive extension events', async () => {
    const s = legacySession([Talkative], { extensions: [jobs] });
    await s.init();
    host!.publish('notifications/com.example/job', 'mine-1', { id: 'mine-1' });
    await tick();
    expect(s.sent).toEqual([]);
  });
});

describe('legacyToolFields', () => {
  const flavours = defineExtension({
    id: 'com.example/flavours',
    toolOptions: { flavour: (value) => String(value).toUpperCase() },
    legacyToolFields: (tool, version) => {
      const flavour = toolOption<string>(tool, 'flavour');
      return flavour && version === '2025-11-25' ? { execution: { flavour } } : undefined;
    },
  });

  test("are merged into a legacy revision's tools/list items; modern pages are unchanged", async () => {
    const s = legacySession([Flavoured], { extensions: [flavours] });
    await s.init('2025-11-25');
    const tools = (await s.request('tools/list')).result.tools as Array<Record<string, any>>;
    expect(tools.find((t) => t.name === 'flavoured')?.execution).toEqual({ flavour: 'SWEET' });
    expect(tools.find((t) => t.name === 'chatty')?.execution).toBeUndefined();
    const older = legacySession([Flavoured], { extensions: [flavours] });
    await older.init('2025-06-18');
    expect(((await older.request('tools/list')).result.tools as Array<Record<string, any>>).some((t) => 'execution' in t)).toBe(false);
    const { call } = harness([Flavoured], { extensions: [flavours] });
    const modern = (await call(request(1, 'tools/list')))?.result.tools as Array<Record<string, any>>;
    expect(modern.some((t) => 'execution' in t)).toBe(false);
  });
});
