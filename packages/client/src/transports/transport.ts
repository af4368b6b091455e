import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '@decorum/core';

/** One request's side of an exchange: how it is cancelled and where its notifications go. */
export interface Exchange {
  /** Aborts the request: stdio sends `notifications/cancelled`, HTTP closes the stream (and, legacy, sends it too). */
  readonly signal?: AbortSignal;
  /** The `progressToken` this request carries, so a shared channel (stdio) can route progress to it. */
  readonly progressToken?: string | number;
  /** Notifications tied to this request (progress, log, and a listen's change notifications). */
  onNotification?(notification: JsonRpcNotification): void;
}

/** What a transport reports to the client that owns it. */
export interface TransportEvents {
  /** A notification tied to no request in flight (legacy list-changed, stray log lines). */
  onNotification(notification: JsonRpcNotification): void;
  /** A request from the server (legacy era only: sampling, elicitation, roots, ping): resolves to its result. */
  onRequest(request: JsonRpcRequest): Promise<unknown>;
  /**
   * The stream of the server's unasked messages came back after a drop (the legacy HTTP session's
   * GET stream): what it carried meanwhile may be lost.
   */
  onResumed(): void;
  /** The connection ended (`error` says why when it was not asked for); `restarting` when a new one follows. */
  onClose(error: Error | undefined, restarting: boolean): void;
  /**
   * The server ended the session (legacy HTTP: 404 to its `Mcp-Session-Id`), once per session.
   * The transport has dropped the id; the client opens a new session or closes with `error`.
   */
  onSessionEnded(error: Error): void;
}

/** Which era the transport speaks now, for the parts of it that depend on the era (HTTP headers). */
export interface EraInfo {
  readonly era: 'modern' | 'legacy';
  readonly protocolVersion: string;
}

/**
 * How the client reaches a server: frames bytes (or hands objects over) and correlates answers.
 * It never changes what a message means; eras, MRTR and caching live above it.
 */
export interface ClientTransport {
  readonly kind: 'stdio' | 'http' | 'in-process';
  /** Opens the connection (spawns, connects); `events` receives what the server sends unasked. */
  start(events: TransportEvents): Promise<void>;
  /** Sends one request; resolves to its final response (result or error), rejects on local failure. */
  request(request: JsonRpcRequest, exchange: Exchange): Promise<JsonRpcResponse>;
  /** Sends one notification (fire and forget). */
  notify(notification: JsonRpcNotification): Promise<void>;
  /** Told once the era is known, for what depends on it (HTTP headers, session handling). */
  setEra(era: EraInfo): void;
  /** Who is calling, for private cache entries (e.g. a digest of the bearer token); '' when anonymous. */
  principal(): string;
  /** Ends the connection and fails the requests still in flight. */
  close(): Promise<void>;
}
