import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { mcpPlugin, type McpPluginOptions } from '@decorum/fastify';

export const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
export const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const MCP_SERVE = `${ROOT}packages/cli/dist/bin.js`;

/** The weather example served by the real `mcp-serve` binary over stdio. */
export const weatherStdio = () => ({
  command: process.execPath,
  args: [MCP_SERVE, `${ROOT}examples/weather/dist/weather.js`],
  env: { DECORUM_LOG_LEVEL: 'warn' },
  stderr: 'ignore' as const,
});

/** The official server-everything (SDK v1, legacy only) over stdio. */
export const everythingStdio = () => ({
  command: process.execPath,
  args: [`${ROOT}node_modules/@modelcontextprotocol/server-everything/dist/index.js`, 'stdio'],
  stderr: 'ignore' as const,
});

/** A fixture script under test/fixtures, run by node. */
export const fixture = (name: string, ...args: string[]) => ({ command: process.execPath, args: [`${FIXTURES}${name}`, ...args], stderr: 'ignore' as const });

export interface HttpServer {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

/** Decorum servers behind the real Fastify plugin on 127.0.0.1 (a free port, or `port` when the URL must be known first). */
export async function serveHttp(options: McpPluginOptions, port = 0): Promise<HttpServer> {
  const app = Fastify({ logger: false, forceCloseConnections: true });
  await app.register(mcpPlugin, options);
  await app.listen({ host: '127.0.0.1', port });
  const { port: bound } = app.server.address() as { port: number };
  return { app, url: `http://127.0.0.1:${bound}${options.path ?? '/mcp'}`, close: () => app.close() };
}
