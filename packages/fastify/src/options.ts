import type { AuthInfo, DecorumServer, ServerOptions, ServerTarget } from '@decorum/core';
import type { LogLevel } from 'fastify';
import type { AllowedOrigins } from './origin.js';

/**
 * Reserved for the OAuth 2.1 resource-server support (a later issue); the shape it is expected to
 * take. Not implemented yet: setting `auth` fails start-up, so that no endpoint is ever believed
 * to be protected while it is not.
 */
export interface McpAuthOptions {
  /** The canonical URI of this MCP server: the audience its tokens must name. */
  readonly resource: string;
  /** The authorization servers that issue tokens for it (advertised in its protected-resource metadata). */
  readonly authorizationServers: readonly string[];
  /** Verifies a bearer token: the caller, or `undefined` to refuse with 401. */
  verifyToken(token: string): Promise<AuthInfo | undefined> | AuthInfo | undefined;
}

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
  /** The largest accepted request body in bytes (default 4 MiB); larger ones get 413 before parsing. */
  bodyLimit?: number;
  /**
   * While a request's SSE stream is quiet, write an SSE comment at this interval (ms) so that
   * proxies and client idle timeouts keep it open (default 15000; 0 turns it off).
   */
  sseKeepAliveMs?: number;
  /** Fastify log level of the endpoint's routes (and so of `ctx.log`). Default: the app's. */
  logLevel?: LogLevel;
  /** Level of the one summary line logged per request, or `false` for none (default `info`). */
  requestLogLevel?: LogLevel | false;
  /** Reserved for OAuth 2.1 (see {@link McpAuthOptions}); setting it fails start-up for now. */
  auth?: McpAuthOptions;
}

export const DEFAULT_PATH = '/mcp';
export const DEFAULT_BODY_LIMIT = 4 * 1024 * 1024;
export const DEFAULT_SSE_KEEP_ALIVE_MS = 15_000;
