import {
  createServer,
  type DecorumServer,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type ServerOptions,
  type ServerTarget,
} from '@decorum/core';
import { encodeMessage, parseJson } from '@decorum/core/transport';
import { ConnectionClosedError, RequestCancelledError } from '../errors.js';
import type { ClientTransport, EraInfo, Exchange, TransportEvents } from './transport.js';

/** A Decorum server to call in this process: decorated classes (or instances), or a built server. */
export interface InProcessTarget {
  server: readonly ServerTarget[] | DecorumServer;
  /** Options for {@link createServer} when `server` is a list of classes. */
  serverOptions?: ServerOptions;
}

/**
 * In-process (no port, no child process): hands each request straight to a DecorumServer's
 * engine. Messages still go through JSON text both ways, so the client sees exactly what a
 * wire would carry and neither side can share (and mutate) the other's objects.
 */
export class InProcessTransport implements ClientTransport {
  readonly kind = 'in-process';
  readonly server: DecorumServer;
  private closed = false;
  private readonly inFlight = new Set<AbortController>();

  constructor(target: InProcessTarget) {
    this.server = createServer(target.server, target.serverOptions);
  }

  /** Spawns or connects; see {@link ClientTransport.start}. */
  async start(_events: TransportEvents): Promise<void> {}

  async request(request: JsonRpcRequest, exchange: Exchange): Promise<JsonRpcResponse> {
    if (this.closed) throw new ConnectionClosedError('The client was closed');
    const controller = new AbortController();
    this.inFlight.add(controller);
    const signal = exchange.signal;
    const onAbort = () => controller.abort(signal!.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const cancelled = new Promise<never>((_, reject) =>
      controller.signal.addEventListener(
        'abort',
        () =>
          reject(
            signal?.aborted
              ? signal.reason instanceof Error
                ? signal.reason
                : new RequestCancelledError(request.method, signal.reason)
              : new ConnectionClosedError('The client was closed'),
          ),
        { once: true },
      ),
    );
    cancelled.catch(() => {});
    try {
      const channel = {
        signal: controller.signal,
        notify: (notification: JsonRpcNotification) => {
          if (!controller.signal.aborted) exchange.onNotification?.(JSON.parse(JSON.stringify(notification)));
        },
      };
      // Through JSON text, as over a wire: the server sees its own copy of the request.
      const answered = Promise.resolve(this.server.engine.handle(parseJson(JSON.stringify(request)), channel)).then((response) => {
        if (!response) throw new ConnectionClosedError(`The server gave no answer to ${request.method}`);
        return JSON.parse(encodeMessage(response)) as JsonRpcResponse;
      });
      return await Promise.race([answered, cancelled]);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.inFlight.delete(controller);
    }
  }

  async notify(_notification: JsonRpcNotification): Promise<void> {}

  /** See {@link ClientTransport.setEra}. */
  setEra(_era: EraInfo): void {}

  principal(): string {
    return '';
  }

  /** See {@link ClientTransport.close}. */
  async close(): Promise<void> {
    this.closed = true;
    for (const controller of this.inFlight) controller.abort();
  }
}
