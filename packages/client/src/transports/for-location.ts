import type { McpClientOptions } from '../client.js';
import { HttpTransport, type HttpTarget } from './http.js';
import { InProcessTransport, type InProcessTarget } from './in-process.js';
import { StdioTransport, type StdioTarget, type StreamLimits } from './stdio.js';
import type { ClientTransport } from './transport.js';

/** Where a server is: a command to spawn (stdio), a URL (Streamable HTTP), or a Decorum server in this process. */
export type ServerLocation = StdioTarget | HttpTarget | InProcessTarget;

/** Options of `connect`: the client's, plus the transport's size limit. */
export type ConnectOptions = McpClientOptions & StreamLimits;

/** The transport a location calls for. */
export function transportFor(location: ServerLocation, options: ConnectOptions = {}): ClientTransport {
  if ('command' in location) return new StdioTransport(location, options);
  if ('url' in location) return new HttpTransport(location, { ...options, warn: options.onWarning });
  return new InProcessTransport(location);
}
