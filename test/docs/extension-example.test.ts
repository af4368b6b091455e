// The extension example of docs/extensions.md (and README's Extensions section), run over stdio (this very file served by an
// mcp-serve child process: it finds the exported class and `serverOptions`; there are no Jest
// globals there, so the tests below only run under Jest) and over HTTP (mcpPlugin on Fastify,
// 127.0.0.1), in both eras.
import 'reflect-metadata';
import Fastify, { type FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { mcpPlugin } from '@decorum/fastify';
import { defineExtension, forMethods, McpServer, Tool, Use, type Middleware, type ServerOptions, type ToolContext } from '@decorum/core';
import { openLegacySession, request, StdioProcess } from '@decorum-internal/test-support';

// #region echo-trail
/** A middleware that adds its name to the result's `trail` (outermost first). */
const trail = (name: string): Middleware =>
  forMethods(['tools/call', 'com.example/echo'], async (call, next) => {
    const result = (await next()) as { trail?: string[] };
    return { ...result, trail: [name, ...(result.trail ?? [])] };
  });
// #endregion

/** A third-party extension: its settings, a method with checked params, a middleware. */
// #region echo-extension
export const echo = defineExtension({
  id: 'com.example/echo',
  settings: { maxLength: 100 },
  middleware: [trail('com.example/echo')],
  methods: {
    'com.example/echo': {
      params: Type.Object({ channel: Type.String(), text: Type.String({ maxLength: 100 }) }),
      nameParam: 'channel', // over HTTP, Mcp-Name must carry params.channel
      run: (req) => ({ echoed: req.input.text, declared: Object.keys(req.clientExtensions) }),
    },
  },
});
// #endregion

// #region echo-server
@McpServer({ name: 'echo-demo', version: '1.0.0' })
@Use(trail('class'))
export class EchoDemo {
  @Tool({ input: null, description: 'The extensions this client declared' })
  declared(_args: unknown, ctx: ToolContext) {
    return Object.keys(ctx.client.extensions).join(', ') || 'none';
  }
}

/** `mcp-serve` reads these from the module; `createServer`, `mcpPlugin` and `serveStdio` take them too. */
export const serverOptions: ServerOptions = { extensions: [echo], middleware: [trail('server')] };
// #endregion

/** Jest's `describe`; under mcp-serve, which loads this file as the server module, nothing is declared. */
const suite: (name: string, body: () => void) => void = typeof describe === 'function' ? describe : () => undefined;

const ID = 'com.example/echo';
const DECLARED = { extensions: { [ID]: {} } };
const LEGACY = '2025-11-25';

/** What every transport and era must show of the example; `send` sends one request and returns its response. */
function behaves(send: (method: string, params: Record<string, unknown>) => Promise<Record<string, any>>) {
  test('the method answers, with its params checked (-32602 naming the field) and the process still serving', async () => {
    const ok = await send(ID, { channel: 'general', text: 'hello' });
    expect(ok.result).toMatchObject({ echoed: 'hello', declared: [ID], trail: ['server', ID] });
    const bad = await send(ID, { channel: 'general', text: 'x'.repeat(101) });
    expect(bad.error.code).toBe(-32602);
    expect(bad.error.message).toMatch(/^Invalid params for com\.example\/echo:\n.*\/text/s);
    expect((await send(ID, { channel: 'general', text: 'again' })).result.echoed).toBe('again');
  });

  test('middleware runs in the documented order: server, extensions, class @Use', async () => {
    const answer = await send('tools/call', { name: 'declared', arguments: {} });
    expect(answer.result.trail).toEqual(['server', ID, 'class']);
  });

  test("ctx.client.extensions echoes what the client declared (the request's own, or the session's)", async () => {
    const answer = await send('tools/call', { name: 'declared', arguments: {} });
    expect(answer.result.content[0].text).toBe(ID);
  });
}

suite('the extension example over stdio (mcp-serve child process)', () => {
  describe('2026-07-28', () => {
    let server: StdioProcess;
    let id = 0;
    beforeAll(() => (server = StdioProcess.serve('test/docs/extension-example.test.ts')));
    afterAll(async () => {
      server.child.stdin.end();
      await server.exit();
    });
    const send = (method: string, params: Record<string, unknown>) => server.request(request(++id, method, params, { capabilities: DECLARED }));
    test('server/discover advertises the settings', async () => {
      expect((await send('server/discover', {})).result.capabilities.extensions).toEqual({ [ID]: { maxLength: 100 } });
    });
    behaves(send);
  });

  describe(LEGACY, () => {
    let server: StdioProcess;
    let id = 0;
    let init: Record<string, any>;
    beforeAll(async () => {
      server = StdioProcess.serve('test/docs/extension-example.test.ts');
      init = await openLegacySession(server, DECLARED, LEGACY);
    });
    afterAll(async () => {
      server.child.stdin.end();
      await server.exit();
    });
    test('initialize advertises the settings', () => {
      expect(init.capabilities.extensions).toEqual({ [ID]: { maxLength: 100 } });
    });
    behaves((method, params) => server.request({ jsonrpc: '2.0', id: ++id, method, params }));
  });
});

suite('the extension example over HTTP (Fastify on 127.0.0.1)', () => {
  let app: FastifyInstance;
  let url: string;
  beforeAll(async () => {
    app = Fastify({ logger: false });
    await app.register(mcpPlugin, { servers: [EchoDemo], ...serverOptions });
    await app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/mcp`;
  });
  afterAll(() => app.close());

  const post = async (body: object, headers: Record<string, string>) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, json: (text ? JSON.parse(text) : {}) as Record<string, any> };
  };
  /** The headers a modern request carries: its method, and `Mcp-Name` where the method names one. */
  const modernHeaders = (method: string, params: Record<string, unknown>): Record<string, string> => {
    const name = method === ID ? params.channel : method === 'tools/call' ? params.name : undefined;
    return { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(typeof name === 'string' ? { 'mcp-name': name } : {}) };
  };

  describe('2026-07-28', () => {
    let id = 0;
    const send = async (method: string, params: Record<string, unknown>) =>
      (await post(request(++id, method, params, { capabilities: DECLARED }), modernHeaders(method, params))).json;
    test('server/discover advertises the settings', async () => {
      expect((await send('server/discover', {})).result.capabilities.extensions).toEqual({ [ID]: { maxLength: 100 } });
    });
    behaves(send);

    test("Mcp-Name must carry the method's nameParam (params.channel): missing or different is -32020", async () => {
      const message = request('n1', ID, { channel: 'general', text: 'hi' });
      const missing = await post(message, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': ID });
      expect([missing.status, missing.json.error.code]).toEqual([400, -32020]);
      expect(missing.json.error.message).toContain('Mcp-Name');
      const other = await post(message, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': ID, 'mcp-name': 'random' });
      expect([other.status, other.json.error.code]).toEqual([400, -32020]);
      const right = await post(message, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': ID, 'mcp-name': 'general' });
      expect([right.status, right.json.result.echoed]).toEqual([200, 'hi']);
    });
  });

  describe(LEGACY, () => {
    let id = 0;
    let session: string;
    let init: Record<string, any>;
    beforeAll(async () => {
      const opened = await post(
        {
          jsonrpc: '2.0',
          id: 'init',
          method: 'initialize',
          params: { protocolVersion: LEGACY, capabilities: DECLARED, clientInfo: { name: 'docs', version: '1' } },
        },
        {},
      );
      session = opened.headers.get('mcp-session-id')!;
      init = opened.json.result;
      await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': session, 'mcp-protocol-version': LEGACY });
    });
    test('initialize advertises the settings', () => {
      expect(init.capabilities.extensions).toEqual({ [ID]: { maxLength: 100 } });
    });
    behaves(
      async (method, params) => (await post({ jsonrpc: '2.0', id: ++id, method, params }, { 'mcp-session-id': session, 'mcp-protocol-version': LEGACY })).json,
    );
  });
});
