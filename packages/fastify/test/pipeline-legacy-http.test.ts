// The request pipeline on legacy (2025-11-25) sessions over HTTP: middleware, guards, the rate limit
// and telemetry see a legacy request as they see a modern one — with its caller's address and the
// session id — and a refusal has the same HTTP status as on the modern era.
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Guard, McpServer, Tool, type GuardFunction, type Middleware, type PipelineCall } from '@decorum/core';
import { initializeSession, legacyPost, legacyToolCall } from './support/legacy-client.js';
import { startApp, type TestApp } from './support/app.js';
import { AuthServerFixture } from './support/auth-fixture.js';

const isAdmin: GuardFunction = (call) => call.auth?.claims.role === 'admin';

/** What the last middleware call saw. */
let seen: Pick<PipelineCall, 'method' | 'protocolVersion' | 'peer' | 'principal' | 'sessionId'> | undefined;
const record: Middleware = (call, next) => {
  seen = { method: call.method, protocolVersion: call.protocolVersion, peer: call.peer, principal: call.principal, sessionId: call.sessionId };
  return next();
};

@McpServer({ name: 'pipeline-legacy', version: '1.0.0' })
class PipelineServer {
  @Tool({ input: null }) ping() {
    return 'pong';
  }
  @Tool({ input: null }) other() {
    return 'other';
  }
  @Guard(isAdmin) @Tool({ input: null }) admin_only() {
    return 'admin';
  }
}

describe('the request pipeline on legacy HTTP sessions', () => {
  let t: TestApp;
  let session: string;
  const exporter = new InMemorySpanExporter();
  const inSession = () => ({ 'mcp-session-id': session });
  beforeAll(async () => {
    t = await startApp({
      servers: [PipelineServer],
      middleware: [record],
      rateLimit: { points: 50, durationMs: 60_000 },
      telemetry: { tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }) },
    });
    session = (await initializeSession(t.url)).id;
  });
  afterAll(() => t.close());

  test('middleware sees the legacy request: its revision, the remote address as peer and principal, the session id', async () => {
    const res = await legacyPost(t.url, legacyToolCall(1, 'other'), inSession());
    expect(res.json.result.content[0].text).toBe('other');
    expect(seen).toEqual({ method: 'tools/call', protocolVersion: '2025-11-25', peer: '127.0.0.1', principal: 'peer:127.0.0.1', sessionId: session });
  });

  test('a guard refusal is 403 with the JSON-RPC error -31403, as on the modern era (no challenge without auth)', async () => {
    const res = await legacyPost(t.url, legacyToolCall(2, 'admin_only'), inSession());
    expect(res.status).toBe(403);
    expect(res.headers['www-authenticate']).toBeUndefined();
    expect(res.json).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -31403, message: 'Forbidden: tools/call "admin_only" was refused by guard "isAdmin"', data: { guard: 'isAdmin' } },
    });
  });

  test('the limiter at its bound under 200 concurrent calls: 429 + Retry-After for each one over, and the session keeps serving', async () => {
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => legacyPost(t.url, legacyToolCall(`c-${i}`, 'ping'), inSession())));
    const limited = answers.filter((a) => a.status === 429);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(50);
    expect(limited).toHaveLength(150);
    for (const res of limited) {
      expect(res.json.error.code).toBe(-31429);
      expect(Number(res.headers['retry-after'])).toBe(Math.ceil(res.json.error.data.retryAfterMs / 1000));
    }
    expect((await legacyPost(t.url, { jsonrpc: '2.0', id: 'after', method: 'tools/list' }, inSession())).status).toBe(200);
  });

  test('a span per request with mcp.session.id, the revision and client.address', async () => {
    exporter.reset();
    await legacyPost(t.url, legacyToolCall(3, 'other'), inSession());
    const [span] = exporter.getFinishedSpans();
    expect(span.name).toBe('tools/call other');
    expect(span.attributes).toMatchObject({
      'mcp.session.id': session,
      'mcp.protocol.version': '2025-11-25',
      'client.address': '127.0.0.1',
      'jsonrpc.request.id': '3',
    });
  });
});

describe('the request pipeline on legacy HTTP sessions with OAuth', () => {
  const resource = 'http://127.0.0.1/mcp';
  let as: AuthServerFixture;
  let t: TestApp;
  beforeAll(async () => {
    as = await AuthServerFixture.start(resource);
    t = await startApp({
      servers: [PipelineServer],
      rateLimit: { points: 1, durationMs: 60_000 },
      auth: { resource, authorizationServers: [as.issuer], requiredScopes: ['mcp:use'], jwt: { jwksUri: as.jwksUri } },
    });
  });
  afterAll(async () => {
    await t.close();
    await as.close();
  });

  test('a guard refusal is 403 with an insufficient_scope challenge', async () => {
    const user = { authorization: `Bearer ${await as.token({ scope: 'mcp:use', role: 'user' })}` };
    const { id } = await initializeSession(t.url, undefined, user);
    const res = await legacyPost(t.url, legacyToolCall(1, 'admin_only'), { ...user, 'mcp-session-id': id });
    expect(res.status).toBe(403);
    expect(res.headers['www-authenticate']).toBe(
      `Bearer error="insufficient_scope", scope="mcp:use", resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp", error_description="Forbidden: tools/call 'admin_only' was refused by guard 'isAdmin'"`,
    );
    expect(res.json.error.code).toBe(-31403);
  });

  test('the limit is per token subject: a second call is 429 with Retry-After, another subject is served', async () => {
    const carol = { authorization: `Bearer ${await as.token({ scope: 'mcp:use', sub: 'carol' })}` };
    const dave = { authorization: `Bearer ${await as.token({ scope: 'mcp:use', sub: 'dave' })}` };
    const carolSession = { ...carol, 'mcp-session-id': (await initializeSession(t.url, undefined, carol)).id };
    expect((await legacyPost(t.url, legacyToolCall(2, 'ping'), carolSession)).status).toBe(200);
    const second = await legacyPost(t.url, legacyToolCall(3, 'ping'), carolSession);
    expect(second.status).toBe(429);
    expect(second.headers['retry-after']).toMatch(/^\d+$/);
    expect(second.json.error.code).toBe(-31429);
    const daveSession = { ...dave, 'mcp-session-id': (await initializeSession(t.url, undefined, dave)).id };
    expect((await legacyPost(t.url, legacyToolCall(4, 'ping'), daveSession)).json.result.content[0].text).toBe('pong');
  });
});
