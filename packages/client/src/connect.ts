import { McpClient, type ConnectOptions } from './client.js';
import type { ServerLocation } from './transports/for-location.js';

/**
 * Connects to one server and agrees on an era (modern `server/discover` first, legacy
 * `initialize` as the fallback). Resolves once the client is ready for requests; the same as
 * `McpClient.connect`.
 *
 * @example
 * const client = await connect({ command: 'node', args: ['server.js'] });
 * const { tools } = await client.listTools();
 */
export function connect(location: ServerLocation, options: ConnectOptions = {}): Promise<McpClient> {
  return McpClient.connect(location, options);
}
