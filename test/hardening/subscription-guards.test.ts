// Hardening risk (#48): resources/subscribe (legacy) and the resourceSubscriptions of
// subscriptions/listen (modern) accepted resources the caller may not read, and delivered their
// updates. Now a resource's guards and scopes judge the subscriber as the resource lists do: a
// watched URI the caller may not see is treated as an unknown one (left out of the ack; a legacy
// `{}` that subscribes nothing), and no update of such a resource is delivered — not even under a
// watched parent URI. Both eras, over stdio (mcp-serve) and HTTP with tokens.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { legacyCall, request, type StdioProcess } from '@decorum-internal/test-support';
import type { TestApp } from '../../packages/fastify/test/support/app.js';
import { body, rpc, standardHeaders } from '../../packages/fastify/test/support/http.js';
import { initializeSession, legacyPost, legacyToolCall, OpenStream } from '../../packages/fastify/test/support/legacy-client.js';
import { GuardedHttp, serveGuardedStdio } from './support/guarded.js';

const SUB = 'io.modelcontextprotocol/subscriptionId';
/** Every kind of watched URI: visible and hidden (sync and async guards, a scope), fixed and templates, and an unknown one. */
const WATCHED = ['notes://public', 'notes://staff', 'notes://hr', 'files://staff', 'files://staff/{name}', 'docs://{name}', 'notes://nope'];
/** Updates of hidden resources: one fixed (sync guard), one under the watched (visible) files://staff (async guard). */
const HIDDEN_UPDATES = ['notes://staff', 'files://staff/dismissals.xlsx'];
const updated = (m: Record<string, any>) => m.method === 'notifications/resources/updated';
const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

describe('over stdio (mcp-serve; stdio has no token, so staff-only resources are hidden)', () => {
  let server: StdioProcess;
  beforeAll(async () => (server = await serveGuardedStdio()));
  afterAll(() => server.kill());

  test('modern listen: hidden resources are not acknowledged, and none of their updates is delivered', async () => {
    server.send(request('L', 'subscriptions/listen', { notifications: { resourceSubscriptions: WATCHED } }));
    const ack = await server.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged' && m.params._meta[SUB] === 'L');
    // notes://hr needs a scope, and stdio has no token to check: as everywhere on stdio, it is served.
    expect(ack.params.notifications).toEqual({ resourceSubscriptions: ['notes://public', 'notes://hr', 'files://staff', 'docs://{name}'] });
    for (const uri of [...HIDDEN_UPDATES, 'notes://public/today', 'notes://public'])
      await server.request(request(`touch ${uri}`, 'tools/call', { name: 'touch', arguments: { uri } }));
    await server.waitFor((m) => updated(m) && m.params.uri === 'notes://public' && m.params._meta?.[SUB] === 'L');
    await settle();
    const delivered = server.messages.filter((m) => updated(m) && m.params._meta?.[SUB] === 'L').map((m) => m.params.uri);
    // A sub-resource of a watched URI that no guard hides is still delivered.
    expect(delivered).toEqual(['notes://public/today', 'notes://public']);
    server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'L' } });
  });

  test('legacy session: subscribing to a hidden resource answers as for an unknown one, and delivers nothing', async () => {
    const subscribe = (id: string, uri: string) => server.request({ jsonrpc: '2.0', id, method: 'resources/subscribe', params: { uri } });
    const unknown = await subscribe('s-1', 'notes://nope');
    for (const uri of HIDDEN_UPDATES) expect(await subscribe(`s-${uri}`, uri)).toEqual({ ...unknown, id: `s-${uri}` });
    expect((await subscribe('s-2', 'notes://public')).result).toEqual({});
    for (const uri of [...HIDDEN_UPDATES, 'notes://public']) await server.request(legacyCall(`t ${uri}`, 'touch', { uri }));
    await server.waitFor((m) => updated(m) && m.params.uri === 'notes://public' && m.params._meta === undefined);
    await settle();
    expect(server.messages.filter((m) => updated(m) && m.params._meta === undefined).map((m) => m.params.uri)).toEqual(['notes://public']);
  });
});

describe('over HTTP with OAuth tokens', () => {
  let http: GuardedHttp;
  let t: TestApp;
  const bearer = (role: string, scope = '') => http.bearer({ role, scope });
  const touch = async (uris: string[]) => {
    const staff = await bearer('staff', 'hr:read');
    for (const uri of uris) await rpc(t.url, `touch ${uri}`, 'tools/call', { name: 'touch', arguments: { uri } }, { headers: staff });
  };
  beforeAll(async () => {
    http = await GuardedHttp.start();
    t = await http.serve('per-caller');
  });
  afterAll(() => http.close());

  const listen = async (id: string, headers: Record<string, string>, watched = WATCHED, url = t.url) => {
    const message = body(id, 'subscriptions/listen', { notifications: { resourceSubscriptions: watched } });
    const stream = await OpenStream.open(url, { method: 'POST', headers: { ...standardHeaders(message), ...headers }, body: JSON.stringify(message) });
    const ack = await stream.waitFor((e) => e.method === 'notifications/subscriptions/acknowledged');
    return { stream, ack: ack.params.notifications };
  };

  test('modern listen: a user is acknowledged and sent only what it may read; staff with the scope get everything', async () => {
    const user = await listen('user', await bearer('user'));
    const staff = await listen('staff', await bearer('staff', 'hr:read'));
    expect(user.ack).toEqual({ resourceSubscriptions: ['notes://public', 'files://staff', 'docs://{name}'] });
    expect(staff.ack).toEqual({
      resourceSubscriptions: ['notes://public', 'notes://staff', 'notes://hr', 'files://staff', 'files://staff/{name}', 'docs://{name}'],
    });
    await touch([...HIDDEN_UPDATES, 'notes://hr', 'notes://public']);
    await user.stream.waitFor((e) => updated(e) && e.params.uri === 'notes://public');
    await staff.stream.waitFor((e) => updated(e) && e.params.uri === 'notes://public');
    await settle();
    expect(
      user.stream
        .events()
        .filter(updated)
        .map((e) => e.params.uri),
    ).toEqual(['notes://public']);
    expect(
      new Set(
        staff.stream
          .events()
          .filter(updated)
          .map((e) => e.params.uri),
      ),
    ).toEqual(new Set([...HIDDEN_UPDATES, 'notes://hr', 'notes://public']));
    user.stream.close();
    staff.stream.close();
  });

  test('legacy session: a hidden or scope-hidden URI answers as an unknown one and its updates never reach the GET stream', async () => {
    const headers = await bearer('user');
    const { id } = await initializeSession(t.url, undefined, headers);
    const inSession = { ...headers, 'mcp-session-id': id };
    const subscribe = (uri: string) => legacyPost(t.url, { jsonrpc: '2.0', id: 1, method: 'resources/subscribe', params: { uri } }, inSession);
    const unknown = await subscribe('notes://nope');
    for (const uri of [...HIDDEN_UPDATES, 'notes://hr']) {
      const hidden = await subscribe(uri);
      expect(hidden.status).toBe(unknown.status);
      expect(hidden.json).toEqual(unknown.json);
    }
    expect((await subscribe('notes://public')).json.result).toEqual({});
    const stream = await OpenStream.get(t.url, id, headers);
    await touch([...HIDDEN_UPDATES, 'notes://hr', 'notes://public']);
    await stream.waitFor((e) => updated(e) && e.params.uri === 'notes://public');
    await settle();
    expect(
      stream
        .events()
        .filter(updated)
        .map((e) => e.params.uri),
    ).toEqual(['notes://public']);
    stream.close();
    expect((await legacyPost(t.url, legacyToolCall(2, 'open'), inSession)).json.result.content[0].text).toBe('open');
  });

  test('with public lists too: a resource the caller may not read is left out of the ack, and a legacy subscription to it answers as an unknown one', async () => {
    const open = await http.serve('public');
    const headers = await bearer('user');
    const { stream, ack } = await listen('pub', headers, ['notes://staff', 'notes://public'], open.url);
    expect(ack).toEqual({ resourceSubscriptions: ['notes://public'] });
    const { id } = await initializeSession(open.url, undefined, headers);
    const subscribe = (uri: string) =>
      legacyPost(open.url, { jsonrpc: '2.0', id: 1, method: 'resources/subscribe', params: { uri } }, { ...headers, 'mcp-session-id': id });
    expect((await subscribe('notes://staff')).json).toEqual((await subscribe('notes://nope')).json);
    stream.close();
  });
});
