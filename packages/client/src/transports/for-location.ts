import { HttpTransport, type HttpTarget } from './http.js';
import { InProcessTransport, type InProcessTarget } from './in-process.js';
import { StdioTransport, type StdioTarget, type StreamLimits } from './stdio.js';
import type { ClientTransport } from './transport.js';

/** Where a server is: a command to spawn (stdio), a URL (Streamable HTTP), or a Decorum server in this process. */
export type ServerLocation = StdioTarget | HttpTarget | InProcessTarget;

/** What a transport takes from `connect`'s options: the size limit, and where warnings go. */
export interface TransportOptions extends StreamLimits {
  /** Anything the transport notices but does not throw for (the client's `onWarning`). */
  onWarning?: (message: string) => void;
}

/** The transport a location calls for. */
export function transportFor(location: ServerLocation, options: TransportOptions = {}): ClientTransport {
  if ('command' in location) return new StdioTransport(location, options);
  if ('url' in location) return new HttpTransport(location, { maxMessageBytes: options.maxMessageBytes, warn: options.onWarning });
  return new InProcessTransport(location);
}
