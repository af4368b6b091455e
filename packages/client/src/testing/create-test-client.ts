import type { DecorumServer, ServerOptions, ServerTarget } from '@decorum/core';
import { createDefaultLogger } from '@decorum/core/transport';
import { McpClient, type McpClientOptions } from '../client.js';
import { InProcessTransport } from '../transports/in-process.js';

/** Options of {@link createTestClient}: the client's (MRTR handlers, …) and the server's. */
export interface TestClientOptions extends McpClientOptions {
  serverOptions?: ServerOptions;
  /**
   * The level of the in-process server's log (JSON lines on stderr). Default `'silent'`: a test
   * run's output stays the test runner's. Set `'error'` to see what a failing handler threw, or
   * give your own `serverOptions.logger`. (A built server passed in keeps its own logger.)
   */
  logLevel?: string;
}

/** A connected client with the in-process server it talks to (for `notifyResourceUpdated`, `live`, …). */
export type TestClient = McpClient & { readonly server: DecorumServer };

/**
 * A client wired straight to a Decorum server in this process (no port, no child process), with
 * the full client API: typed calls, MRTR handlers, subscriptions, caching. The server logs
 * nothing unless asked ({@link TestClientOptions.logLevel}), so test output stays readable.
 *
 * @example
 * const client = await createTestClient(WeatherServer);
 * const { tools } = await client.listTools();
 */
export async function createTestClient(server: ServerTarget | readonly ServerTarget[] | DecorumServer, options: TestClientOptions = {}): Promise<TestClient> {
  const targets = Array.isArray(server) || isBuilt(server) ? (server as readonly ServerTarget[] | DecorumServer) : [server as ServerTarget];
  const serverOptions = { ...options.serverOptions, logger: options.serverOptions?.logger ?? createDefaultLogger({ level: options.logLevel ?? 'silent' }) };
  const transport = new InProcessTransport({ server: targets, serverOptions });
  const client = await new McpClient(transport, { era: 'modern', ...options }).connect();
  return Object.defineProperty(client, 'server', { value: transport.server, enumerable: false }) as TestClient;
}

function isBuilt(value: unknown): value is DecorumServer {
  return typeof value === 'object' && value !== null && 'engine' in value && 'registry' in value;
}
