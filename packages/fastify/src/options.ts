import type { DecorumServer, ServerOptions, ServerTarget } from '@decorum/core';
import type { McpAuthOptions } from './auth/options.js';
import type { LogLevel } from 'fastify';
import type { AllowedHosts } from './headers/host-check.js';
import type { AllowedOrigins } from './headers/origin.js';
import type { McpCorsOptions } from './headers/cors.js';
import type { LegacySessionsOptions } from './legacy/session-store.js';

export type { LegacySessionsOptions } from './legacy/session-store.js';

export type { McpAuthOptions, JwtValidationOptions } from './auth/options.js';

/** Options of {@link mcpPlugin}. Everything of `createServer`'s options passes through. */
export interface McpPluginOptions extends ServerOptions {
  /**
   * What to serve: decorated classes (or instances), merged into one registry, or a server built
   * with `createServer` (then the other server options here are ignored).
   */
  servers: readonly ServerTarget[] | DecorumServer;
  /** The endpoint path (default `/mcp`). */
  path?: string;
  /**
   * A route prefix, as for any Fastify plugin (`fastify-plugin` would otherwise ignore it):
   * `{ prefix: '/api' }` serves `/api/mcp`.
   */
  prefix?: string;
  /**
   * Browser origins allowed to call the endpoint. Default: `http(s)://localhost`, `127.0.0.1` and
   * `[::1]` on any port. A request without `Origin` is always served; others get 403.
   */
  allowedOrigins?: AllowedOrigins;
  /**
   * Answer CORS for the origins of `allowedOrigins` (the one list of origins): preflights, and the
   * headers that let a page read answers (`Mcp-Session-Id`, `WWW-Authenticate` exposed). `true`
   * takes the defaults; leave it off when the app answers CORS itself (`@fastify/cors`).
   */
  cors?: boolean | McpCorsOptions;
  /**
   * `Host` headers the endpoint answers (DNS-rebinding defence). Default: on a loopback connection,
   * `localhost`, `127.0.0.1` or `[::1]` (any port); other connections unchecked. A list of host
   * names or a predicate applies to every request; `'any'` turns the check off. Others get 403.
   */
  allowedHosts?: AllowedHosts;
  /** The largest accepted request body in bytes (default 4 MiB); larger ones get 413 before parsing. */
  bodyLimit?: number;
  /**
   * While a request's SSE stream is quiet, write an SSE comment at this interval (ms) so that
   * proxies and client idle timeouts keep it open (default 15000; 0 turns it off).
   */
  sseKeepAliveMs?: number;
  /**
   * Answers whose result is a pre-serialized list page of at least this many bytes (default 8192),
   * or holds a content block's ASCII text of at least this many characters, are written straight
   * to the socket, in pieces: the page is not copied into a body per request, the text not joined
   * into one message string. Like SSE streams they keep the headers hooks set, but `onSend` hooks
   * (compression, say) do not see them. `Infinity` sends every answer through Fastify's `reply.send`.
   */
  directWriteBytes?: number;
  /** Fastify log level of the endpoint's routes (and so of `ctx.log`). Default: the app's. */
  logLevel?: LogLevel;
  /** Level of the one summary line logged per request, or `false` for none (default `info`). */
  requestLogLevel?: LogLevel | false;
  /**
   * Make the endpoint an OAuth 2.1 protected resource (MCP authorization): bearer tokens checked
   * on every request, scopes from `requiredScopes` and the decorators' `scopes`, and RFC 9728
   * metadata at `/.well-known/oauth-protected-resource…`. See {@link McpAuthOptions}.
   */
  auth?: McpAuthOptions;
  /**
   * Legacy (2025-11-25 and earlier) sessions on this endpoint, served unless `eras` is `modern`:
   * idle expiry (default 30 min), the most open at once (10,000) and per caller (100), and what a
   * session keeps for `Last-Event-ID` resumption across its streams (1000 events, 4 MiB).
   */
  legacySessions?: LegacySessionsOptions;
}

export const DEFAULT_PATH = '/mcp';
export const DEFAULT_BODY_LIMIT = 4 * 1024 * 1024;
export const DEFAULT_SSE_KEEP_ALIVE_MS = 15_000;
/**
 * Pre-serialized pages of this size or more (a `tools/list` of some 25 tools with schemas) are
 * written straight to the socket: from about here the copy costs more than the hijack saves
 * (docs/perf-notes.md, "Figures behind source comments").
 */
export const DEFAULT_DIRECT_WRITE_BYTES = 8 * 1024;
