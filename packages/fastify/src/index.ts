/**
 * @decorum/fastify — the Streamable HTTP transport of Decorum (MCP 2026-07-28) as a Fastify
 * plugin: POST-only endpoint, MCP header validation, JSON or per-request SSE responses,
 * cancellation by disconnect, Origin checks.
 *
 * @module \@decorum/fastify
 */

/** The plugin to register in any Fastify app, and its options (OAuth 2.1 `auth` included). */
export { mcpPlugin } from './plugin.js';
export type { McpPluginOptions, McpAuthOptions, JwtValidationOptions, LegacySessionsOptions } from './options.js';

/** A standalone app and a runner (what `mcp-serve --http` uses), and Node's HTTP timeouts for your own server. */
export { createMcpApp, createHttpLogger, type McpAppOptions } from './app.js';
export { serveHttp, type ServeHttpOptions, type HttpServer } from './serve-http.js';
export { timeoutOptions, type HttpTimeouts, type HttpServerOptions } from './timeouts.js';

/** Origin and Host policies: the default allowlist test and the options' types. */
export { isLocalOrigin, type AllowedOrigins } from './headers/origin.js';
/** CORS for browser clients (`cors` option): its options and the headers it allows and exposes. */
export { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS, type McpCorsOptions } from './headers/cors.js';
export type { AllowedHosts } from './headers/host-check.js';

/** Log paths to redact (credentials) when you configure your own app's logger. */
export { REDACTED_LOG_PATHS } from './request-log.js';
