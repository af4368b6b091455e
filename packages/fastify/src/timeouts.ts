import type { Server } from 'node:http';
import type { FastifyHttpOptions } from 'fastify';

/** The Fastify options of a plain HTTP/1.1 server (where `http` goes to `http.createServer`). */
export type HttpServerOptions = FastifyHttpOptions<Server>;

/**
 * How long a client may take to send a whole request (headers and body), in ms. A client that
 * sends headers and a few bytes, then nothing, would otherwise hold its connection (and a file
 * descriptor) for ever: Fastify's default is no limit. 30 s lets a 4 MiB body arrive at ~140 KB/s.
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** How long a client may take to send the request headers, in ms (Node's default is 60 s). */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;

/** Request-reading timeouts of a standalone MCP app (see `createMcpApp`). */
export interface HttpTimeouts {
  /** Whole request (headers and body) must arrive within this many ms, else 408 and the connection closes (default 30000; 0 = none). */
  requestTimeout?: number;
  /** Request headers must arrive within this many ms (default 10000, at most `requestTimeout`). */
  headersTimeout?: number;
}

/**
 * The Fastify options that apply the timeouts. They bound reading the request only: a response —
 * an SSE stream, a long `subscriptions/listen` — may last as long as it needs, which is why the
 * socket-idle `connectionTimeout` stays off (an SSE stream may be quiet between keep-alives).
 * Node checks the deadlines every `connectionsCheckingInterval` (30 s by default), so that interval
 * is brought down to a quarter of the shortest timeout (at most 1 s).
 */
export function timeoutOptions(timeouts: HttpTimeouts, fastify: HttpServerOptions = {}): HttpServerOptions {
  const requestTimeout = timeouts.requestTimeout ?? fastify.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const wantedHeaders = timeouts.headersTimeout ?? fastify.http?.headersTimeout ?? DEFAULT_HEADERS_TIMEOUT_MS;
  const headersTimeout = requestTimeout > 0 ? Math.min(wantedHeaders, requestTimeout) : wantedHeaders;
  const shortest = requestTimeout > 0 ? Math.min(requestTimeout, headersTimeout) : headersTimeout;
  const connectionsCheckingInterval = fastify.http?.connectionsCheckingInterval ?? Math.max(10, Math.min(1000, Math.floor(shortest / 4)));
  return { ...fastify, requestTimeout, http: { ...fastify.http, headersTimeout, connectionsCheckingInterval } };
}
