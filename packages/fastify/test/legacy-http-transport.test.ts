// The 2025-11-25 Streamable HTTP transport rules on legacy sessions: resuming a POST's stream with
// Last-Event-ID, the body limit, Origin on every method, per-item scopes, and where a server→client
// request goes when the POST takes JSON only.
import { McpServer, serverOf, Tool, type ToolContext } from '@decorum/core';
import { until } from '@decorum-internal/test-support';
import { send } from './support/http.js';
import { initializeSession, legacyPost, legacyToolCall, OpenStream } from './support/legacy-client.js';
import { startApp, type TestApp } from './support/app.js';
import { AuthServerFixture } from './support/auth-fixture.js';

const NAME_SCHEMA = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } as const;

@McpServer({ name: 'legacy-transport', version: '1.0.0' })
class TransportFixture {
  @Tool({ description: 'Reports progress, asks for a name, reports progress again, greets', input: null })
  async steps(_args: unknown, ctx: ToolContext): Promise<string> {
    ctx.progress(1, 2);
    const answer = await ctx.elicit<{ name: string }>({ message: 'Name?', requestedSchema: NAME_SCHEMA });
    ctx.progress(2, 2);
    return answer.action === 'accept' ? `Hello, ${answer.content!.name}` : answer.action;
  }

  @Tool({ description: 'Changes the tool list (a session-level notification)', input: null })
  toggle(): string {
    const { live } = serverOf(this);
    if (!live.tools.disable('secret')) live.tools.enable('secret');
    return 'toggled';
  }

  @Tool({ description: 'Needs the notes:admin scope', input: null, scopes: ['notes:admin'] })
  secret(): string {
    return 'the secret';
  }
}

const seqOf = (eventId: string) => Number(eventId.slice(eventId.lastIndexOf('_') + 1));

describe('legacy sessions follow the 2025-11-25 transport', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Unanswered asks fail after 2 s, so that a failing test cannot hold the app open.
    t = await startApp({ servers: [TransportFixture], bodyLimit: 4096, legacy: { clientRequestTimeoutMs: 2000 } });
  });
  afterAll(() => t.close());

  test("a POST's stream is resumed with GET + Last-Event-ID: what came after that event, on that stream only, then the rest live", async () => {
    const { id: session } = await initializeSession(t.url);
    const call = await OpenStream.post(t.url, session, legacyToolCall(1, 'steps', {}, { progressToken: 'p' }));
    const ask = await call.waitFor((event) => event.method === 'elicitation/create');
    const progressId = call.eventIds()[1];
    call.close(); // the connection drops after the ask; in this revision that is not cancelling
    // A session-level message while disconnected belongs to the standalone stream, never to this one.
    await legacyPost(t.url, legacyToolCall(2, 'toggle'), { 'mcp-session-id': session, accept: 'application/json' });

    // Resume as if the ask had been lost with the connection.
    const resumed = await OpenStream.get(t.url, session, { 'last-event-id': progressId });
    expect(resumed.res.statusCode).toBe(200);
    expect(await resumed.waitFor((event) => event.method === 'elicitation/create')).toEqual(ask);
    expect(
      (await legacyPost(t.url, { jsonrpc: '2.0', id: ask.id, result: { action: 'accept', content: { name: 'Ada' } } }, { 'mcp-session-id': session })).status,
    ).toBe(202);
    const done = await resumed.waitFor((event) => event.id === 1);
    expect(done.result).toEqual({ content: [{ type: 'text', text: 'Hello, Ada' }], isError: false });
    expect(resumed.events().map((event) => event.method ?? 'response')).toEqual(['elicitation/create', 'notifications/progress', 'response']);
    await resumed.waitForEnd();
    // Event ids never go back: the priming event names the resumption point, replays and live ones follow.
    const seqs = resumed.eventIds().map(seqOf);
    expect(seqs[0]).toBe(seqOf(progressId));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(resumed.eventIds()).size).toBe(seqs.length);
  });

  test('a finished stream resumed after its response replays the rest and ends', async () => {
    const { id: session } = await initializeSession(t.url);
    const call = await OpenStream.post(t.url, session, legacyToolCall(3, 'steps', {}, { progressToken: 'p' }));
    const ask = await call.waitFor((event) => event.method === 'elicitation/create');
    const askId = call.lastMessageId()!;
    call.close();
    await legacyPost(t.url, { jsonrpc: '2.0', id: ask.id, result: { action: 'decline' } }, { 'mcp-session-id': session });
    const resumed = await OpenStream.get(t.url, session, { 'last-event-id': askId });
    await resumed.waitForEnd();
    expect(resumed.events()).toEqual([
      expect.objectContaining({ method: 'notifications/progress' }),
      expect.objectContaining({ id: 3, result: expect.objectContaining({ content: [{ type: 'text', text: 'decline' }] }) }),
    ]);
  });

  test('resuming a stream replaces the connection that was still open: the old one ends, the new one gets the rest', async () => {
    const { id: session } = await initializeSession(t.url);
    const first = await OpenStream.post(t.url, session, legacyToolCall(4, 'steps', {}, { progressToken: 'p' }));
    const ask = await first.waitFor((event) => event.method === 'elicitation/create');
    const second = await OpenStream.get(t.url, session, { 'last-event-id': first.lastMessageId()! });
    await first.waitForEnd();
    await legacyPost(t.url, { jsonrpc: '2.0', id: ask.id, result: { action: 'accept', content: { name: 'Bo' } } }, { 'mcp-session-id': session });
    expect((await second.waitFor((event) => event.id === 4)).result.content[0].text).toBe('Hello, Bo');
    expect(first.events().some((event) => event.id === 4)).toBe(false);
  });

  test('the standalone stream too: a second plain GET is 409, a resumption replaces the open connection', async () => {
    const { id: session } = await initializeSession(t.url);
    const first = await OpenStream.get(t.url, session);
    expect((await send(t.url, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': session } })).status).toBe(409);
    const second = await OpenStream.get(t.url, session, {
      'last-event-id': first.eventIds()[0] ?? (await until('the first event id', () => first.eventIds()[0])),
    });
    expect(second.res.statusCode).toBe(200);
    await first.waitForEnd();
    await legacyPost(t.url, legacyToolCall(9, 'toggle'), { 'mcp-session-id': session, accept: 'application/json' });
    await second.waitFor((event) => event.method === 'notifications/tools/list_changed');
    second.close();
  });

  test('Last-Event-ID naming a stream the session does not keep → 404', async () => {
    const { id: session } = await initializeSession(t.url);
    const res = await send(t.url, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'last-event-id': '999_1' } });
    expect(res.status).toBe(404);
    expect(res.json.error.message).toMatch(/Last-Event-ID names a stream this session no longer keeps/);
  });

  test('a server ask goes out on the standalone GET stream when the POST takes JSON only; the answer is JSON', async () => {
    const { id: session } = await initializeSession(t.url);
    const standalone = await OpenStream.get(t.url, session);
    const call = legacyPost(t.url, legacyToolCall(5, 'steps'), { 'mcp-session-id': session, accept: 'application/json' });
    const ask = await standalone.waitFor((event) => event.method === 'elicitation/create');
    expect(ask.params).toMatchObject({ mode: 'form', message: 'Name?' });
    expect(
      (await legacyPost(t.url, { jsonrpc: '2.0', id: ask.id, result: { action: 'accept', content: { name: 'Cy' } } }, { 'mcp-session-id': session })).status,
    ).toBe(202);
    const res = await call;
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json).toEqual({ jsonrpc: '2.0', id: 5, result: { content: [{ type: 'text', text: 'Hello, Cy' }], isError: false } });
    // The GET stream never carries a response (it is not resuming a request's stream).
    expect(standalone.events().some((event) => event.id === 5)).toBe(false);
    standalone.close();
  });

  test('an initialize larger than the body limit → 413 with a JSON-RPC error and no session', async () => {
    const res = await legacyPost(t.url, {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x'.repeat(5000), version: '1' } },
    });
    expect(res.status).toBe(413);
    expect(res.headers['mcp-session-id']).toBeUndefined();
    expect(res.json).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: 'Payload Too Large: the body exceeds the 4096-byte limit' } });
  });

  test('a message larger than the body limit in a session → 413; the session keeps serving', async () => {
    const { id: session } = await initializeSession(t.url);
    const res = await legacyPost(t.url, legacyToolCall(6, 'toggle', { padding: 'x'.repeat(5000) }), { 'mcp-session-id': session });
    expect(res.status).toBe(413);
    expect(res.json.error.message).toMatch(/Payload Too Large/);
    expect((await legacyPost(t.url, { jsonrpc: '2.0', id: 7, method: 'ping' }, { 'mcp-session-id': session })).json.result).toEqual({});
  });

  test.each(['GET', 'DELETE'])('%s with a foreign Origin → 403, and the session is untouched', async (method) => {
    const { id: session } = await initializeSession(t.url);
    const res = await send(t.url, { method, headers: { accept: 'text/event-stream', 'mcp-session-id': session, origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
    expect(res.json.error.message).toBe('Forbidden: Origin "https://evil.example" is not allowed; add it to allowedOrigins');
    expect((await legacyPost(t.url, { jsonrpc: '2.0', id: 8, method: 'ping' }, { 'mcp-session-id': session })).json.result).toEqual({});
  });
});

describe('legacy sessions on a protected endpoint: per-item scopes', () => {
  const resource = 'http://127.0.0.1/mcp';
  let as: AuthServerFixture;
  let t: TestApp;
  beforeAll(async () => {
    as = await AuthServerFixture.start(resource);
    t = await startApp({
      servers: [TransportFixture],
      auth: { resource, authorizationServers: [as.issuer], requiredScopes: ['mcp:use'], jwt: { jwksUri: as.jwksUri } },
    });
  });
  afterAll(async () => {
    await t.close();
    await as.close();
  });

  test('a call whose tool needs a scope the token lacks → 403 with the insufficient_scope challenge; with the scope it runs', async () => {
    const user = { authorization: `Bearer ${await as.token({ scope: 'mcp:use' })}` };
    const { id: session } = await initializeSession(t.url, undefined, user);
    const refused = await legacyPost(t.url, legacyToolCall(1, 'secret'), { ...user, 'mcp-session-id': session });
    expect(refused.status).toBe(403);
    expect(refused.headers['www-authenticate']).toMatch(/^Bearer error="insufficient_scope", scope="mcp:use notes:admin", resource_metadata="[^"]+"/);
    expect(refused.json.error.message).toMatch(/needs the scopes mcp:use notes:admin; the token lacks notes:admin/);
    const admin = { authorization: `Bearer ${await as.token({ scope: 'mcp:use notes:admin' })}` };
    const allowed = await legacyPost(t.url, legacyToolCall(2, 'secret'), { ...admin, 'mcp-session-id': session });
    expect(allowed.json.result.content[0].text).toBe('the secret');
  });
});
