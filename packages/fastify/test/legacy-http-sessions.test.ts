import { McpServer, Resource, serverOf, Tool, type ToolContext } from '@decorum/core';
import { Type } from 'typebox';
import { rpc, send } from './support/http.js';
import { initializeSession, INIT_PARAMS, legacyPost, OpenStream } from './support/legacy-client.js';
import { startApp, type TestApp } from './support/app.js';
import { AuthServerFixture } from './support/auth-fixture.js';

@McpServer({ name: 'legacy-fixture', version: '1.0.0' })
class LegacyFixture {
  @Tool({ description: 'Echoes its text', input: Type.Object({ text: Type.String() }) })
  echo(args: { text: string }): string {
    return args.text;
  }

  @Tool({ description: 'Asks for a name', input: null })
  async ask(_args: unknown, ctx: ToolContext): Promise<string> {
    const answer = await ctx.elicit<{ name: string }>({
      message: 'Name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
    return answer.action === 'accept' ? `Hello, ${answer.content!.name}` : answer.action;
  }

  @Tool({ description: 'Changes the tool list', input: null })
  toggle(): string {
    const { live } = serverOf(this);
    if (!live.tools.disable('echo')) live.tools.enable('echo');
    return 'toggled';
  }

  @Resource({ uri: 'mem://a', mimeType: 'text/plain' })
  a(): string {
    return 'A';
  }
}

describe('legacy (2025-11-25) sessions on the Streamable HTTP endpoint', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ servers: [LegacyFixture], legacy: { clientRequestTimeoutMs: 300 }, legacySessions: { idleTimeoutMs: 400 } });
  });
  afterAll(() => t.close());

  test('initialize mints a random Mcp-Session-Id and answers in the old shape', async () => {
    const { id, result } = await initializeSession(t.url);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(result).toMatchObject({
      protocolVersion: '2025-11-25',
      serverInfo: { name: 'legacy-fixture', version: '1.0.0' },
      capabilities: { tools: { listChanged: true }, resources: { subscribe: true } },
    });
    expect(result.resultType).toBeUndefined();
    const list = await legacyPost(t.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' });
    expect(list.json.result.tools.map((x: { name: string }) => x.name)).toEqual(['echo', 'ask', 'toggle']);
    expect(list.json.result).not.toHaveProperty('resultType');
    expect(list.json.result).not.toHaveProperty('ttlMs');
    expect(list.json.result).not.toHaveProperty('_meta');
  });

  test('version negotiation: a served legacy version is kept, an unknown one gets the latest legacy one', async () => {
    expect((await initializeSession(t.url, { ...INIT_PARAMS, protocolVersion: '2025-03-26' })).result.protocolVersion).toBe('2025-03-26');
    expect((await initializeSession(t.url, { ...INIT_PARAMS, protocolVersion: '2099-01-01' })).result.protocolVersion).toBe('2025-11-25');
  });

  test('a legacy request without Mcp-Session-Id → 400 saying to initialize', async () => {
    const res = await legacyPost(t.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-protocol-version': '2025-11-25' });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toMatch(/Mcp-Session-Id header is required; send initialize first/);
  });

  test('an unknown session id → 404, and the endpoint keeps serving', async () => {
    const res = await legacyPost(t.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-session-id': 'no-such-session' });
    expect(res.status).toBe(404);
    expect(res.json.error.message).toMatch(/no such session/);
    const { id } = await initializeSession(t.url);
    expect((await legacyPost(t.url, { jsonrpc: '2.0', id: 2, method: 'ping' }, { 'mcp-session-id': id })).json.result).toEqual({});
  });

  test('a second initialize on a session is a clear error; the session keeps serving', async () => {
    const { id } = await initializeSession(t.url);
    const again = await legacyPost(t.url, { jsonrpc: '2.0', id: 3, method: 'initialize', params: INIT_PARAMS }, { 'mcp-session-id': id });
    expect(again.json.error).toMatchObject({ code: -32600, message: expect.stringContaining('already initialized') });
    expect(
      (
        await legacyPost(
          t.url,
          { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'echo', arguments: { text: 'still here' } } },
          { 'mcp-session-id': id, accept: 'application/json' },
        )
      ).json.result.content[0].text,
    ).toBe('still here');
  });

  test('DELETE ends the session: its id answers 404 afterwards, for anyone', async () => {
    const { id } = await initializeSession(t.url);
    expect((await send(t.url, { method: 'DELETE', headers: { 'mcp-session-id': id } })).status).toBe(200);
    const reused = await legacyPost(t.url, { jsonrpc: '2.0', id: 5, method: 'tools/list' }, { 'mcp-session-id': id });
    expect(reused.status).toBe(404);
    expect((await send(t.url, { method: 'DELETE', headers: { 'mcp-session-id': id } })).status).toBe(404);
  });

  test('an idle session expires: 404 so that the client starts over', async () => {
    const { id } = await initializeSession(t.url);
    await new Promise((r) => setTimeout(r, 500));
    expect((await legacyPost(t.url, { jsonrpc: '2.0', id: 6, method: 'ping' }, { 'mcp-session-id': id })).status).toBe(404);
  });

  test('a response with an id the session never sent is logged and ignored; the session keeps serving', async () => {
    const { id } = await initializeSession(t.url);
    expect((await legacyPost(t.url, { jsonrpc: '2.0', id: 'nobody-asked', result: {} }, { 'mcp-session-id': id })).status).toBe(202);
    expect((await legacyPost(t.url, { jsonrpc: '2.0', id: 7, method: 'ping' }, { 'mcp-session-id': id })).json.result).toEqual({});
  });

  test('an elicitation goes out on the POST stream and its answer, POSTed back, completes the call', async () => {
    const { id } = await initializeSession(t.url);
    const call = await OpenStream.post(t.url, id, { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'ask', arguments: {} } });
    const ask = await call.waitFor((e) => e.method === 'elicitation/create');
    expect(ask.params).toMatchObject({ mode: 'form', message: 'Name?' });
    expect(
      (await legacyPost(t.url, { jsonrpc: '2.0', id: ask.id, result: { action: 'accept', content: { name: 'Ada' } } }, { 'mcp-session-id': id })).status,
    ).toBe(202);
    const done = await call.waitFor((e) => e.id === 8);
    expect(done.result).toEqual({ content: [{ type: 'text', text: 'Hello, Ada' }], isError: false });
    expect(call.raw).toMatch(/^id: \S+\nretry: \d+\ndata: \n\n/);
  });

  test('a client that never answers an elicitation: the call fails with a clear error and the ask is cancelled', async () => {
    const { id } = await initializeSession(t.url);
    const call = await OpenStream.post(t.url, id, { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'ask', arguments: {} } });
    const done = await call.waitFor((e) => e.id === 9);
    expect(done.error).toMatchObject({ code: -32001, message: 'The client did not answer elicitation/create within 300 ms' });
    const ask = call.events().find((e) => e.method === 'elicitation/create');
    expect(call.events()).toContainEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: ask.id, reason: 'no answer within 300 ms' },
    });
    expect((await legacyPost(t.url, { jsonrpc: '2.0', id: 10, method: 'ping' }, { 'mcp-session-id': id })).json.result).toEqual({});
  });

  test('notifications/cancelled ends a call in flight: no response, and its own ask is cancelled', async () => {
    const { id } = await initializeSession(t.url);
    const call = await OpenStream.post(t.url, id, { jsonrpc: '2.0', id: 20, method: 'tools/call', params: { name: 'ask', arguments: {} } });
    const ask = await call.waitFor((e) => e.method === 'elicitation/create');
    expect(
      (
        await legacyPost(
          t.url,
          { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 20, reason: 'user gave up' } },
          { 'mcp-session-id': id },
        )
      ).status,
    ).toBe(202);
    await call.waitForEnd();
    expect(call.events().find((e) => e.id === 20)).toBeUndefined();
    expect(call.events()).toContainEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: ask.id, reason: 'the request that asked was cancelled' },
    });
  });

  test('a call that sends nothing before its response is answered with JSON, even when SSE is accepted', async () => {
    const { id } = await initializeSession(t.url);
    const res = await legacyPost(
      t.url,
      { jsonrpc: '2.0', id: 22, method: 'tools/call', params: { name: 'echo', arguments: { text: 'plain' } } },
      { 'mcp-session-id': id },
    );
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json.result.content[0].text).toBe('plain');
  });

  test('a modern-shaped request wins over a stale Mcp-Session-Id header', async () => {
    const res = await rpc(t.url, 21, 'tools/list', {}, { headers: { 'mcp-session-id': 'stale' } });
    expect(res.status).toBe(200);
    expect(res.json.result.resultType).toBe('complete');
  });

  test('the GET stream carries list changes; Last-Event-ID resumes it with what was missed', async () => {
    const { id } = await initializeSession(t.url);
    const stream = await OpenStream.get(t.url, id);
    expect(stream.res.statusCode).toBe(200);
    expect((await send(t.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': id }, method: 'GET' })).status).toBe(409);
    await legacyPost(
      t.url,
      { jsonrpc: '2.0', id: 11, method: 'tools/call', params: { name: 'toggle', arguments: {} } },
      { 'mcp-session-id': id, accept: 'application/json' },
    );
    await stream.waitFor((e) => e.method === 'notifications/tools/list_changed');
    const lastId = stream.lastMessageId()!;
    stream.close();
    // Missed while disconnected (or written to the dead connection before the server noticed), then
    // replayed after the Last-Event-ID, which replaces whatever connection the stream still had.
    await legacyPost(
      t.url,
      { jsonrpc: '2.0', id: 12, method: 'tools/call', params: { name: 'toggle', arguments: {} } },
      { 'mcp-session-id': id, accept: 'application/json' },
    );
    const resumed = await OpenStream.get(t.url, id, { 'last-event-id': lastId });
    const replayed = await resumed.waitFor((e) => e.method === 'notifications/tools/list_changed');
    expect(replayed).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: {} });
    expect(resumed.events().filter((e) => e.method).length).toBe(1);
    resumed.close();
  });

  test('resource not found is -32002 on legacy', async () => {
    const { id } = await initializeSession(t.url);
    const res = await legacyPost(
      t.url,
      { jsonrpc: '2.0', id: 13, method: 'resources/read', params: { uri: 'mem://missing' } },
      { 'mcp-session-id': id, accept: 'application/json' },
    );
    expect(res.json.error).toMatchObject({ code: -32002, message: 'Resource not found: mem://missing' });
  });

  test('modern requests to the same endpoint stay stateless meanwhile', async () => {
    await initializeSession(t.url);
    const res = await rpc(t.url, 14, 'tools/list');
    expect(res.status).toBe(200);
    expect(res.headers['mcp-session-id']).toBeUndefined();
    expect(res.json.result.resultType).toBe('complete');
  });
});

describe('legacy session limits and switches', () => {
  test('the session count is bounded: initialize beyond it → 503', async () => {
    const t = await startApp({ servers: [LegacyFixture], legacySessions: { maxSessions: 2 } });
    try {
      await initializeSession(t.url);
      await initializeSession(t.url);
      const third = await legacyPost(t.url, { jsonrpc: '2.0', id: 0, method: 'initialize', params: INIT_PARAMS });
      expect(third.status).toBe(503);
      expect(third.json.error.message).toMatch(/2 sessions are open/);
    } finally {
      await t.close();
    }
  });

  test("eras: 'modern' refuses initialize with -32022 and GET with 405", async () => {
    const t = await startApp({ servers: [LegacyFixture], eras: 'modern' });
    try {
      const res = await legacyPost(t.url, { jsonrpc: '2.0', id: 0, method: 'initialize', params: INIT_PARAMS });
      expect(res.json.error.code).toBe(-32022);
      expect((await send(t.url, { method: 'GET' })).status).toBe(405);
    } finally {
      await t.close();
    }
  });

  test("eras: 'legacy' refuses a modern request without a session (400)", async () => {
    const t = await startApp({ servers: [LegacyFixture], eras: 'legacy' });
    try {
      expect((await rpc(t.url, 1, 'tools/list')).status).toBe(400);
      expect((await initializeSession(t.url)).result.protocolVersion).toBe('2025-11-25');
    } finally {
      await t.close();
    }
  });
});

describe('legacy sessions on a protected endpoint', () => {
  test("another principal's session id is 404, as if it did not exist; the owner keeps using it", async () => {
    const resource = 'http://127.0.0.1/mcp';
    const as = await AuthServerFixture.start(resource);
    const t = await startApp({ servers: [LegacyFixture], auth: { resource, authorizationServers: [as.issuer], jwt: { jwksUri: as.jwksUri } } });
    try {
      const alice = { authorization: `Bearer ${await as.token({ sub: 'alice' })}` };
      const bob = { authorization: `Bearer ${await as.token({ sub: 'bob' })}` };
      expect((await legacyPost(t.url, { jsonrpc: '2.0', id: 0, method: 'initialize', params: INIT_PARAMS })).status).toBe(401);
      const opened = await legacyPost(t.url, { jsonrpc: '2.0', id: 0, method: 'initialize', params: INIT_PARAMS }, alice);
      const id = String(opened.headers['mcp-session-id']);
      expect((await legacyPost(t.url, { jsonrpc: '2.0', id: 1, method: 'ping' }, { ...bob, 'mcp-session-id': id })).status).toBe(404);
      expect((await send(t.url, { method: 'DELETE', headers: { ...bob, 'mcp-session-id': id } })).status).toBe(404);
      expect((await legacyPost(t.url, { jsonrpc: '2.0', id: 2, method: 'ping' }, { ...alice, 'mcp-session-id': id })).json.result).toEqual({});
    } finally {
      await t.close();
      await as.close();
    }
  });
});
