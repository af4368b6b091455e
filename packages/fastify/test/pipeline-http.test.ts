import { context, propagation } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Guard, McpServer, Tool, Use, type GuardFunction, type Middleware, type ToolContext } from '@decorum/core';
import { fixture } from '@decorum-internal/test-support';
import { rpc } from './support/http.js';
import { LogCapture, startApp, type TestApp } from './support/app.js';
import { AuthServerFixture } from './support/auth-fixture.js';
import { serveHttpProcess } from './support/cli-process.js';

const RESOURCE = 'https://mcp.example.test/mcp';
const isAdmin: GuardFunction = (call) => call.auth?.claims.role === 'admin';
function brokenGuard(): boolean {
  throw new Error('internal detail 42');
}
const stamp: Middleware = async (call, next) => {
  const result = (await next()) as { content?: Array<{ text: string }> };
  if (call.method === 'tools/call' && result.content) result.content[0].text += ` (via ${call.peer})`;
  return result as never;
};

@McpServer({ name: 'pipeline-http', version: '1.0.0' })
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
  @Guard(brokenGuard) @Tool({ input: null }) broken() {
    return 'never';
  }
  @Use(async function silent() {
    return undefined as never;
  })
  @Tool({ input: null })
  silent() {
    return 'never';
  }
  @Use(function stuck() {
    return new Promise<never>(() => {});
  })
  @Tool({ input: null })
  stuck() {
    return 'never';
  }
  @Tool({ input: null }) whoami(_args: unknown, ctx: ToolContext) {
    return ctx.auth?.principal ?? 'nobody';
  }
}

describe('request pipeline over HTTP without auth', () => {
  let t: TestApp;
  const exporter = new InMemorySpanExporter();
  const logs = new LogCapture();
  beforeAll(async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    t = await startApp(
      {
        servers: [PipelineServer],
        middleware: [stamp],
        rateLimit: { points: 50, durationMs: 60_000 },
        stepTimeoutMs: 200,
        telemetry: { tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }) },
      },
      undefined,
      logs,
    );
  });
  afterAll(async () => {
    await t.close();
    context.disable();
    propagation.disable();
  });

  test('mcpPlugin passes the middleware option through; the remote address is the peer', async () => {
    const res = await rpc(t.url, 1, 'tools/call', { name: 'other' });
    expect(res.status).toBe(200);
    expect(res.json.result.content[0].text).toBe('other (via 127.0.0.1)');
  });

  test('a guard refusal is 403 with the JSON-RPC error -31403 (no challenge without auth)', async () => {
    const res = await rpc(t.url, 2, 'tools/call', { name: 'admin_only' });
    expect(res.status).toBe(403);
    expect(res.headers['www-authenticate']).toBeUndefined();
    expect(res.json).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -31403, message: 'Forbidden: tools/call "admin_only" was refused by guard "isAdmin"', data: { guard: 'isAdmin' } },
    });
  });

  test('a guard that throws: a clear -32603, no stack or detail on the wire', async () => {
    const res = await rpc(t.url, 3, 'tools/call', { name: 'broken' });
    expect(res.json.error).toEqual({ code: -32603, message: 'Guard "brokenGuard" failed, so the call was refused (the details are in the server log)' });
    expect(res.text).not.toContain('internal detail');
    expect(res.text).not.toContain('at ');
    expect(logs.raw.join('\n')).toContain('internal detail 42');
  });

  test('middleware that returns nothing: -32603 naming it', async () => {
    const res = await rpc(t.url, 4, 'tools/call', { name: 'silent' });
    expect(res.json.error).toEqual({ code: -32603, message: 'Middleware "silent" returned nothing: return next()\'s result, or a result of its own' });
  });

  test('middleware that never calls next: -32603 naming it once stepTimeoutMs passed, and the server keeps serving', async () => {
    const stuck = rpc(t.url, 'stuck', 'tools/call', { name: 'stuck' });
    expect((await rpc(t.url, 'meanwhile', 'tools/call', { name: 'other' })).json.result.content[0].text).toBe('other (via 127.0.0.1)');
    const res = await stuck;
    expect(res.json).toEqual({
      jsonrpc: '2.0',
      id: 'stuck',
      error: {
        code: -32603,
        message: 'Middleware "stuck" did not answer within 200 ms (stepTimeoutMs), so the request was ended: a middleware must call next() or return a result',
      },
    });
    expect(logs.lines.find((l) => l.msg === 'pipeline step timed out')).toMatchObject({ step: 'stuck', stepTimeoutMs: 200 });
    expect((await rpc(t.url, 'after-stuck', 'tools/call', { name: 'other' })).status).toBe(200);
  });

  test('the limiter at its bound under 200 concurrent calls: 429 + Retry-After for each one over, and the server keeps serving', async () => {
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => rpc(t.url, `c-${i}`, 'tools/call', { name: 'ping' })));
    const ok = answers.filter((a) => a.status === 200);
    const limited = answers.filter((a) => a.status === 429);
    expect(ok).toHaveLength(50);
    expect(limited).toHaveLength(150);
    for (const res of limited) {
      expect(res.json.error.code).toBe(-31429);
      expect(res.json.error.data.retryAfterMs).toBeGreaterThan(0);
      expect(Number(res.headers['retry-after'])).toBe(Math.ceil(res.json.error.data.retryAfterMs / 1000));
    }
    const after = await rpc(t.url, 'after', 'tools/list');
    expect(after.status).toBe(200);
    expect((await rpc(t.url, 'after-2', 'tools/call', { name: 'whoami' })).json.result.content[0].text).toBe('nobody (via 127.0.0.1)');
  });

  test('a span per request whose parent is the traceparent in _meta', async () => {
    exporter.reset();
    await rpc(t.url, 5, 'tools/call', { name: 'other' }, { extra: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } });
    const [span] = exporter.getFinishedSpans();
    expect(span.name).toBe('tools/call other');
    expect(span.spanContext().traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(span.attributes['client.address']).toBe('127.0.0.1');
  });
});

describe('request pipeline over HTTP with OAuth', () => {
  let as: AuthServerFixture;
  let t: TestApp;
  const bearer = async (claims: Record<string, unknown>) => ({ headers: { authorization: `Bearer ${await as.token({ scope: 'mcp:use', ...claims })}` } });
  beforeAll(async () => {
    as = await AuthServerFixture.start(RESOURCE);
    t = await startApp({
      servers: [PipelineServer],
      lists: 'per-caller',
      rateLimit: { points: 2, durationMs: 60_000 },
      auth: { resource: RESOURCE, authorizationServers: [as.issuer], requiredScopes: ['mcp:use'], jwt: { jwksUri: as.jwksUri } },
    });
  });
  afterAll(async () => {
    await t.close();
    await as.close();
  });

  test('a tool the guards hide from this caller (per-caller lists) answers as an unknown one: no challenge, no guard name', async () => {
    const res = await rpc(t.url, 1, 'tools/call', { name: 'admin_only' }, await bearer({ role: 'user' }));
    expect(res.status).toBe(200);
    expect(res.headers['www-authenticate']).toBeUndefined();
    expect(res.json.error).toEqual({ code: -32602, message: 'Unknown tool: admin_only' });
    expect((await rpc(t.url, 2, 'tools/call', { name: 'admin_only' }, await bearer({ role: 'admin' }))).json.result.content[0].text).toBe('admin');
  });

  test('per-caller lists: each token sees what its guards allow, private', async () => {
    const user = await rpc(t.url, 3, 'tools/list', {}, await bearer({ role: 'user' }));
    expect(user.json.result.tools.map((tool: { name: string }) => tool.name)).toEqual(['ping', 'other', 'silent', 'stuck', 'whoami']);
    expect(user.json.result.cacheScope).toBe('private');
    const admin = await rpc(t.url, 4, 'tools/list', {}, await bearer({ role: 'admin' }));
    expect(admin.json.result.tools.map((tool: { name: string }) => tool.name)).toContain('admin_only');
  });

  test('rate limits are per token subject, not per address', async () => {
    const alice = await bearer({ sub: 'alice' });
    const bob = await bearer({ sub: 'bob' });
    expect((await rpc(t.url, 5, 'tools/call', { name: 'whoami' }, alice)).status).toBe(200);
    expect((await rpc(t.url, 6, 'tools/call', { name: 'whoami' }, alice)).status).toBe(200);
    const third = await rpc(t.url, 7, 'tools/call', { name: 'whoami' }, alice);
    expect(third.status).toBe(429);
    expect(third.headers['retry-after']).toMatch(/^\d+$/);
    expect((await rpc(t.url, 8, 'tools/call', { name: 'whoami' }, bob)).json.result.content[0].text).toBe('bob');
  });
});

describe('mcp-serve --http with a module exporting serverOptions and container', () => {
  test('the container builds the class and the middleware sees the remote address as the caller', async () => {
    const served = await serveHttpProcess([fixture('pipeline-server.ts'), '--http', '--port', '0']);
    try {
      const res = await rpc(served.url, 1, 'tools/call', { name: 'time' });
      expect(res.json.result.content.map((c: { text: string }) => c.text)).toEqual(['injected-time', 'principal=peer:127.0.0.1 retry=false']);
      const refused = await rpc(served.url, 2, 'tools/call', { name: 'lookup', arguments: { topic: 'secret' } });
      expect(refused.status).toBe(403);
      expect(refused.json.error.code).toBe(-31403);
    } finally {
      served.child.kill('SIGKILL');
    }
  });
});
