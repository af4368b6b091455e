/**
 * The official SDK v2 over HTTP, as its docs wire it for Fastify: `createMcpHandler` (stateless,
 * 2026-07-28, a server instance per request) adapted with `toNodeHandler` from
 * `@modelcontextprotocol/node`, in the app made by `createMcpFastifyApp` from
 * `@modelcontextprotocol/fastify` (Fastify's JSON body parser, localhost Host/Origin checks).
 * Prints `READY <port>`.
 */
import { createMcpFastifyApp } from '@modelcontextprotocol/fastify';
import { createMcpHandler, type McpServer } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { benchServer, listServer } from './sdk-tools.js';
import { LIST_SIZES } from './tools-schemas.js';
import { listenAndAnnounce } from './announce.js';

const app = createMcpFastifyApp({ host: '127.0.0.1' });

function mount(path: string, factory: () => McpServer): void {
  const handle = toNodeHandler(createMcpHandler(factory, { onerror: (error) => process.stderr.write(`sdk: ${error.message}\n`) }));
  app.post(path, async (request, reply) => {
    reply.hijack();
    await handle(request.raw, reply.raw, request.body);
  });
}

mount('/mcp', benchServer);
for (const n of LIST_SIZES) mount(`/list-${n}`, () => listServer(n));
await listenAndAnnounce(app);
