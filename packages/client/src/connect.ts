import { McpClient, type McpClientOptions } from './client.js';
import { HttpTransport, type HttpTarget } from './transports/http.js';
import { InProcessTransport, type InProcessTarget } from './transports/in-process.js';
import { StdioTransport, type StdioTarget, type StreamLimits } from './transports/stdio.js';
import type { ClientTransport } from './transports/transport.js';

/** Where a server is: a command to spawn (stdio), a URL (Streamable HTTP), or a Decorum server in this process. */
export type ServerLocation = StdioTarget | HttpTarget | InProcessTarget;

/** Options of {@link connect}: the client's, plus the transport's size limit. */
export type ConnectOptions = McpClientOptions & StreamLimits;

/** The transport a location calls for. */
export function transportFor(location: ServerLocation, options: ConnectOptions = {}): ClientTransport {
  if ('command' in location) return new StdioTransport(location, options);
  if ('url' in location) return new HttpTransport(location, { ...options, warn: options.onWarning });
  return new InProcessTransport(location);
}

/**
 * Connects to one server and agrees on an era (modern `server/discover` first, legacy
 * `initialize` as the fallback). Resolves once the client is ready for requests.
 *
 * @example
 * const client = await connect({ command: 'node', args: ['server.js'] });
 * const { tools } = await client.listTools();
 */
export async function connect(location: ServerLocation, options: ConnectOptions = {}): Promise<McpClient> {
  const client = new McpClient(transportFor(location, options), options);
  try {
    return await client.connect();
  } catch (error) {
    await client.close().catch(() => {});
    throw error;
  }
}
