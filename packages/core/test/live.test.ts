import 'reflect-metadata';
import { Type } from 'typebox';
import { createServer, DecorumStartupError, McpServer, Resource, serverOf, Tool, type JsonRpcNotification } from '@decorum/core';
import { encodeMessage } from '@decorum/core/transport';
import { quietLogger } from './support/engine-harness.js';
import { request } from '@decorum-internal/test-support';

const SUB = 'io.modelcontextprotocol/subscriptionId';

@McpServer({ name: 'live', version: '1.0.0' })
class LiveTools {
  @Tool({ input: null })
  deploy() {
    return 'deployed';
  }

  @Tool({ input: Type.Object({ enabled: Type.Boolean() }) })
  toggle_deploy(args: { enabled: boolean }) {
    const { live } = serverOf(this);
    return args.enabled ? `enabled: ${live.tools.enable('deploy')}` : `disabled: ${live.tools.disable('deploy')}`;
  }

  @Resource({ uri: 'files://dir' })
  dir() {
    return 'a directory';
  }

  @Resource({ uriTemplate: 'users://{id}' })
  user(v: Record<string, string>) {
    return `user ${v.id}`;
  }
}

class Extra {
  @Tool({ input: null })
  extra() {
    return 'extra';
  }
}

function build() {
  const server = createServer([LiveTools], { logger: quietLogger });
  const json = (x: any) => JSON.parse(x.jsonrpc && ('result' in x || 'error' in x) ? encodeMessage(x) : JSON.stringify(x));
  const call = async (message: unknown) => json(await server.engine.handle(message, { notify: () => {} }));
  /** Opens a listen: collected notifications, the pending response, and a cancel. */
  const listen = (id: string | number, notifications: Record<string, unknown>) => {
    const seen: JsonRpcNotification[] = [];
    const controller = new AbortController();
    const response = Promise.resolve(
      server.engine.handle(request(id, 'subscriptions/listen', { notifications }), { signal: controller.signal, notify: (n) => seen.push(json(n)) }),
    ).then((r) => (r === undefined ? undefined : json(r)));
    return { seen, response, cancel: () => controller.abort() };
  };
  return { server, call, listen };
}

describe('live registry', () => {
  test('disable, enable and remove change what is listed and served, each with one event', async () => {
    const { server, call, listen } = build();
    const l = listen('L', { toolsListChanged: true });
    expect((await call(request(1, 'tools/list'))).result.tools.map((t: { name: string }) => t.name)).toEqual(['deploy', 'toggle_deploy']);
    expect(server.live.tools.disable('deploy')).toBe(true);
    expect(server.live.tools.disable('deploy')).toBe(false);
    expect((await call(request(2, 'tools/list'))).result.tools.map((t: { name: string }) => t.name)).toEqual(['toggle_deploy']);
    expect((await call(request(3, 'tools/call', { name: 'deploy' }))).error.code).toBe(-32602);
    expect(server.live.tools.enable('deploy')).toBe(true);
    expect((await call(request(4, 'tools/call', { name: 'deploy' }))).result.content[0].text).toBe('deployed');
    expect(server.live.tools.remove('deploy')).toBe(true);
    expect(server.live.tools.has('deploy')).toBe(false);
    expect(l.seen.map((n) => n.method)).toEqual(['notifications/subscriptions/acknowledged', ...Array(3).fill('notifications/tools/list_changed')]);
    l.cancel();
    expect(await l.response).toBeUndefined();
  });

  test('a tool can disable another through serverOf(this)', async () => {
    const { call } = build();
    expect((await call(request(1, 'tools/call', { name: 'toggle_deploy', arguments: { enabled: false } }))).result.content[0].text).toBe('disabled: true');
    expect((await call(request(2, 'tools/list'))).result.tools).toHaveLength(1);
  });

  test('all tools disabled: tools stay served, with an empty list', async () => {
    const { server, call } = build();
    server.live.batch(() => {
      server.live.tools.disable('deploy');
      server.live.tools.disable('toggle_deploy');
    });
    const list = await call(request(1, 'tools/list'));
    expect(list.result.tools).toEqual([]);
    expect((await call(request(2, 'server/discover'))).result.capabilities.tools).toEqual({ listChanged: true });
  });

  test('add serves a new class; a taken name (even disabled) is refused and changes nothing', async () => {
    const { server, call } = build();
    server.live.add(Extra);
    expect((await call(request(1, 'tools/call', { name: 'extra' }))).result.content[0].text).toBe('extra');
    server.live.tools.disable('extra');
    expect(() => server.live.add(Extra)).toThrow(DecorumStartupError);
    expect(server.live.tools.names()).toEqual(['deploy', 'toggle_deploy', 'extra']);
  });

  test('an instance that add or replace serves knows its server through serverOf', () => {
    const { server } = build();
    const extra = new Extra();
    server.live.add(extra);
    expect(serverOf(extra)).toBe(server);
    const [reloaded] = server.live.replace([LiveTools]);
    expect(serverOf(reloaded)).toBe(server);
  });

  test('a cursor of the old list is refused after a change', async () => {
    const server = createServer([LiveTools], { logger: quietLogger, pageSize: 1 });
    const first = JSON.parse(encodeMessage((await server.engine.handle(request(1, 'tools/list'), { notify: () => {} }))!));
    server.live.tools.disable('toggle_deploy');
    const next = JSON.parse(encodeMessage((await server.engine.handle(request(2, 'tools/list', { cursor: first.result.nextCursor }), { notify: () => {} }))!));
    expect(next.error.code).toBe(-32602);
  });
});

describe('subscriptions/listen (engine)', () => {
  test('ack first with the honoured subset; unknown fields and unsupported kinds are left out', async () => {
    const { server, listen } = build();
    const l = listen('L1', { toolsListChanged: true, promptsListChanged: true, somethingElse: true, resourceSubscriptions: ['files://dir', 'nope://x'] });
    expect(l.seen[0]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { toolsListChanged: true, resourceSubscriptions: ['files://dir'] }, _meta: { [SUB]: 'L1' } },
    });
    server.closeSubscriptions();
    expect(await l.response).toMatchObject({ id: 'L1', result: { resultType: 'complete', _meta: { [SUB]: 'L1' } } });
  });

  test('tagging keeps the id type; only opted-in types are sent; two subscriptions each get theirs', async () => {
    const { server, listen } = build();
    const a = listen(20, { toolsListChanged: true });
    const b = listen('21', { resourcesListChanged: true, resourceSubscriptions: ['users://{id}', 'files://dir'] });
    server.live.tools.disable('deploy');
    server.live.resources.disable('dir');
    server.notifyResourceUpdated('users://7');
    server.notifyResourceUpdated('files://dir/readme');
    server.notifyResourceUpdated('other://x');
    expect(a.seen.slice(1)).toEqual([{ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { [SUB]: 20 } } }]);
    expect(b.seen.slice(1)).toEqual([
      { jsonrpc: '2.0', method: 'notifications/resources/list_changed', params: { _meta: { [SUB]: '21' } } },
      { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'users://7', _meta: { [SUB]: '21' } } },
      { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'files://dir/readme', _meta: { [SUB]: '21' } } },
    ]);
    a.cancel();
    server.live.tools.enable('deploy');
    expect(a.seen).toHaveLength(2);
    expect(await a.response).toBeUndefined();
    server.closeSubscriptions();
    expect((await b.response).result._meta[SUB]).toBe('21');
  });

  test('a URI served by a template can be watched', async () => {
    const { server, listen } = build();
    const l = listen('u', { resourceSubscriptions: ['users://42'] });
    expect(l.seen[0].params!.notifications).toEqual({ resourceSubscriptions: ['users://42'] });
    server.notifyResourceUpdated('users://41');
    server.notifyResourceUpdated('users://42');
    expect(l.seen.slice(1).map((n) => n.params!.uri)).toEqual(['users://42']);
    l.cancel();
  });

  test('an empty filter is acknowledged as {} (L-02); a missing one is -32602', async () => {
    const { server, call, listen } = build();
    const l = listen('e', {});
    expect(l.seen[0].params!.notifications).toEqual({});
    server.closeSubscriptions();
    await l.response;
    expect((await call(request('bad', 'subscriptions/listen'))).error.code).toBe(-32602);
    expect((await call(request('bad2', 'subscriptions/listen', { notifications: { toolsListChanged: 'yes' } }))).error.code).toBe(-32602);
  });
});
