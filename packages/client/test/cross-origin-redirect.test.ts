// A redirect of the MCP endpoint to another origin (#48, risk 8): `fetch` would follow it with the
// connection's own headers (an `x-api-key`) and the message. The client refuses it before sending
// anything there; redirects within the origin are followed as before, headers and all.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import Fastify from 'fastify';
import { mcpPlugin } from '@decorum/fastify';
import { connect, CrossOriginRedirectError, TooManyRedirectsError, type HttpTransport } from '@decorum/client';
import { until } from '@decorum-internal/test-support';
import { LiveServer } from '@decorum-internal/test-support/fixtures';
import { rawEndpoint } from './support/raw-endpoint.js';
import { serveHttp } from './support/servers.js';

const headers = { 'x-api-key': 'secret-key' };

test('an endpoint redirecting (307) to another origin: the connection fails with CrossOriginRedirectError, and the other origin gets nothing', async () => {
  // The other origin: a real MCP endpoint on another port, which would answer if it were reached.
  const other = await serveHttp({ servers: [LiveServer] });
  const reached: IncomingHttpHeaders[] = [];
  other.app.server.on('request', (req) => reached.push(req.headers));
  const redirected: string[] = [];
  const moved = createServer((req, res) => {
    redirected.push(req.method!);
    res.writeHead(307, { location: other.url }).end();
  });
  await new Promise<void>((resolve) => moved.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(moved.address() as { port: number }).port}/mcp`;
  try {
    const refusal = await connect({ url, headers, token: () => 'a-token' }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(CrossOriginRedirectError);
    expect(refusal).toMatchObject({ code: 'DECORUM_ERR_CROSS_ORIGIN_REDIRECT', from: url, location: other.url });
    expect((refusal as Error).message).toContain(`${url} redirected to ${other.url}, another origin; not followed`);
    expect(redirected).toEqual(['POST']);
    expect(reached).toEqual([]);
  } finally {
    moved.close();
    await other.close();
  }
});

test('an endpoint redirecting to itself without end: the connection fails with TooManyRedirectsError after 20 hops', async () => {
  let requests = 0;
  const loop = createServer((req, res) => {
    requests++;
    res.writeHead(307, { location: req.url }).end();
  });
  await new Promise<void>((resolve) => loop.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(loop.address() as { port: number }).port}/mcp`;
  try {
    const refusal = await connect({ url }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(TooManyRedirectsError);
    expect(refusal).toMatchObject({ code: 'DECORUM_ERR_TOO_MANY_REDIRECTS', url, limit: 20 });
    expect(requests).toBe(21);
  } finally {
    loop.close();
  }
});

test('a redirect (308) within the origin is followed, with the headers of the connection', async () => {
  const app = Fastify({ logger: false, forceCloseConnections: true });
  await app.register(mcpPlugin, { servers: [LiveServer], path: '/mcp' });
  app.route({ method: ['GET', 'POST', 'DELETE'], url: '/old', handler: (_request, reply) => reply.code(308).header('location', '/mcp').send() });
  const keys: unknown[] = [];
  app.addHook('onRequest', async (request) => void (request.url === '/mcp' && keys.push(request.headers['x-api-key'])));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  const client = await connect({ url: `http://127.0.0.1:${port}/old`, headers });
  try {
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((key) => key === headers['x-api-key'])).toBe(true);
  } finally {
    await client.close();
    await app.close();
  }
});

test("a legacy session's GET stream redirected to another origin: not followed, and not asked again (the stream is refused, with a warning)", async () => {
  const other = await serveHttp({ servers: [LiveServer] });
  const reached: string[] = [];
  other.app.server.on('request', (req) => reached.push(req.method!));
  let gets = 0;
  const { url, server } = await rawEndpoint((body, _headers, res, method) => {
    if (method === 'GET') {
      gets++;
      return void res.writeHead(307, { location: other.url }).end();
    }
    if (body?.method !== 'initialize') return void res.writeHead(202).end();
    res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'sid' });
    const result = { protocolVersion: '2025-11-25', capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'moved-stream', version: '1' } };
    res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result }));
  });
  const warnings: string[] = [];
  const client = await connect({ url, headers }, { era: 'legacy', onWarning: (message) => warnings.push(message) });
  try {
    await until('the GET stream given up', () => (client.transport as HttpTransport).sessionStreamState === 'refused');
    expect(gets).toBe(1);
    expect(warnings).toEqual([expect.stringContaining(`redirected to ${other.url}, another origin`)]);
    expect(reached).toEqual([]);
  } finally {
    await client.close();
    server.close();
    await other.close();
  }
});
