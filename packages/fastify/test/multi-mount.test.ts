import Fastify, { type FastifyInstance } from 'fastify';
import { createServer } from '@decorum/core';
import { mcpPlugin } from '@decorum/fastify';
import { pino } from 'pino';
import { rpc, send } from './support/http.js';
import { FixtureServer, OtherServer } from './support/fixture-server.js';
import { WeatherServer } from '../../../examples/weather/src/weather.js';

/** Several endpoints in one app, next to ordinary routes (encapsulation). */
describe('several mounts in one app', () => {
  let app: FastifyInstance;
  let base: string;
  // The prototype of every request the app saw, by path.
  const requestPrototypes = new Map<string, object>();
  beforeAll(async () => {
    app = Fastify({ logger: false });
    app.addHook('onRequest', (request, _reply, done) => {
      requestPrototypes.set(request.url, Object.getPrototypeOf(request) as object);
      done();
    });
    // The app's own routes, with Fastify's default JSON parser and a text parser of its own.
    app.get('/health', async () => ({ ok: true }));
    app.post('/echo-json', async (request) => ({ got: request.body }));
    app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_r, b, done) => done(null, b));
    app.post('/echo-text', async (request) => request.body);
    await app.register(mcpPlugin, { servers: [FixtureServer], path: '/mcp' });
    await app.register(mcpPlugin, { servers: createServer([OtherServer], { logger: pino({ level: 'silent' }) }), path: '/other/mcp' });
    // Inside an encapsulated context with a prefix, the way an app groups its API routes.
    await app.register(
      async (api) => {
        api.get('/status', async () => 'up');
        await api.register(mcpPlugin, { servers: [OtherServer], path: '/mcp', info: { name: 'api-other' } });
      },
      { prefix: '/api' },
    );
    // The plugin's own prefix option, which fastify-plugin would otherwise drop.
    await app.register(mcpPlugin, { servers: [FixtureServer], prefix: '/v2', path: '/mcp' });
    await app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  });
  afterAll(() => app.close());

  const serverName = async (url: string) => (await rpc(url, 1, 'server/discover')).json.result._meta['io.modelcontextprotocol/serverInfo'].name;

  test('each path serves its own server', async () => {
    expect(await serverName(`${base}/mcp`)).toBe('fixture');
    expect(await serverName(`${base}/other/mcp`)).toBe('other');
    expect(await serverName(`${base}/api/mcp`)).toBe('api-other');
    expect(await serverName(`${base}/v2/mcp`)).toBe('fixture');
    const other = await rpc(`${base}/other/mcp`, 2, 'tools/call', { name: 'add_one', arguments: { n: 41 } });
    expect(other.json.result.content[0].text).toBe('42');
    expect((await rpc(`${base}/other/mcp`, 3, 'tools/call', { name: 'echo', arguments: { text: 'x' } })).json.error.code).toBe(-32602);
  });

  // Fastify gives a context that decorates its request a class of its own: were each mount to
  // decorate, the code all endpoints run would see one request shape per mount (plugin.ts, EXCHANGE).
  test("every endpoint's requests are of the app's one request class", async () => {
    const paths = ['/mcp', '/other/mcp', '/api/mcp', '/v2/mcp'];
    for (const path of paths) await serverName(`${base}${path}`);
    await send(`${base}/health`, { method: 'GET' });
    expect(new Set([...paths, '/health'].map((path) => requestPrototypes.get(path))).size).toBe(1);
  });

  test("the app's other routes keep their own parsers and behaviour", async () => {
    expect((await send(`${base}/health`, { method: 'GET' })).json).toEqual({ ok: true });
    expect((await send(`${base}/api/status`, { method: 'GET' })).text).toBe('up');
    expect((await send(`${base}/echo-json`, { headers: { 'content-type': 'application/json' }, body: '{"a":1}' })).json).toEqual({ got: { a: 1 } });
    expect((await send(`${base}/echo-text`, { headers: { 'content-type': 'text/plain' }, body: 'hello' })).text).toBe('hello');
    // An ordinary route answers malformed JSON the Fastify way, not as JSON-RPC.
    const bad = await send(`${base}/echo-json`, { headers: { 'content-type': 'application/json' }, body: '{' });
    expect(bad.status).toBe(400);
    expect(bad.json.jsonrpc).toBeUndefined();
  });

  test('app.mcpServers lists the mounts visible from a context, by path', async () => {
    expect([...app.mcpServers.keys()].sort()).toEqual(['/mcp', '/other/mcp', '/v2/mcp']);
    expect(app.mcpServers.get('/other/mcp')?.info.name).toBe('other');
    // A child context sees its own mounts and its parents', not its siblings'.
    const scoped = Fastify();
    let inner: string[] = [];
    let sibling: string[] = [];
    await scoped.register(mcpPlugin, { servers: [OtherServer], path: '/root' });
    await scoped.register(async (child) => {
      await child.register(mcpPlugin, { servers: [OtherServer], path: '/child' });
      inner = [...child.mcpServers.keys()].sort();
    });
    await scoped.register(async (other) => {
      sibling = [...other.mcpServers.keys()].sort();
    });
    await scoped.ready();
    expect(inner).toEqual(['/child', '/root']);
    expect(sibling).toEqual(['/root']);
    expect([...scoped.mcpServers.keys()]).toEqual(['/root']);
    await scoped.close();
  });

  test('the same path twice in one context is refused by Fastify', async () => {
    const dup = Fastify();
    await dup.register(mcpPlugin, { servers: [FixtureServer] });
    await expect(dup.register(mcpPlugin, { servers: [OtherServer] }).ready()).rejects.toThrow(/already declared|duplicated/i);
    await dup.close().catch(() => {});
  });

  test('app.inject() serves the endpoint without a port', async () => {
    const weather = Fastify();
    await weather.register(mcpPlugin, { servers: [WeatherServer] });
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    const res = await weather.inject({
      method: 'POST',
      url: '/mcp',
      headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'weather_current' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'weather_current', arguments: { location: 'Tokyo' }, _meta: meta } },
    });
    await weather.close();
    expect({ status: res.statusCode, body: res.json() }).toMatchObject({
      status: 200,
      body: { id: 1, result: { content: [{ text: expect.stringContaining('Tokyo') }] } },
    });
  });
});
