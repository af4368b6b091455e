import type { DecorumServer, Logger, ServerTarget } from '@decorum/core';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { pino, type DestinationStream } from 'pino';
import type { McpPluginOptions } from './options.js';
import { mcpPlugin } from './plugin.js';
import { REDACTED_LOG_PATHS } from './request-log.js';
import { timeoutOptions, type HttpServerOptions, type HttpTimeouts } from './timeouts.js';

/** Options of {@link createMcpApp}: the plugin's, plus the Fastify instance's own. */
export interface McpAppOptions extends Omit<McpPluginOptions, 'servers'>, HttpTimeouts {
  /**
   * The app's pino logger. Default: JSON lines on stderr at `DECORUM_LOG_LEVEL` (default `info`),
   * with credentials redacted ({@link REDACTED_LOG_PATHS}).
   */
  logger?: Logger;
  /** Other Fastify options (`trustProxy`, `http`, …); `requestTimeout` above wins over theirs. */
  fastify?: Omit<HttpServerOptions, 'logger' | 'loggerInstance' | 'disableRequestLogging'>;
}

/**
 * The default logger of a standalone MCP app: pino JSON lines on stderr (stdout stays free), level
 * from `DECORUM_LOG_LEVEL` (default `info`), credentials redacted ({@link REDACTED_LOG_PATHS}).
 */
export function createHttpLogger(options: { level?: string; destination?: DestinationStream } = {}): Logger {
  const level = options.level ?? process.env.DECORUM_LOG_LEVEL ?? 'info';
  return pino(
    { name: 'decorum', level, redact: { paths: [...REDACTED_LOG_PATHS], censor: '[redacted]' } },
    options.destination ?? pino.destination({ fd: 2, sync: true }),
  );
}

/**
 * A Fastify app that serves only the given servers over Streamable HTTP (what `mcp-serve --http`
 * runs). It logs one line per request (Fastify's own two request lines are off) and is ready when
 * the promise resolves: start-up errors reject it. Reading a request is bounded in time
 * (`requestTimeout` 30 s, `headersTimeout` 10 s by default; see timeouts.ts). Listen with `app.listen({ host, port })`, or
 * test it without a port through `app.inject()`.
 */
export async function createMcpApp(servers: readonly ServerTarget[] | DecorumServer, options: McpAppOptions = {}): Promise<FastifyInstance> {
  const { logger, fastify, requestTimeout, headersTimeout, ...pluginOptions } = options;
  // pino's Logger is what Fastify logs through; its type parameter is widened to keep the app's type plain.
  const loggerInstance = (logger ?? createHttpLogger()) as unknown as FastifyBaseLogger;
  // Fastify's own two lines per request are off: the endpoint logs one summary line itself.
  const app: FastifyInstance = Fastify({
    logController: new LogController({ disableRequestLogging: true }),
    ...timeoutOptions({ requestTimeout, headersTimeout }, fastify),
    loggerInstance,
  });
  await app.register(mcpPlugin, { ...pluginOptions, servers });
  await app.ready();
  return app;
}
