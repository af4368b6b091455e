import type { FastifyBaseLogger, FastifyReply, FastifyRequest, LogLevel } from 'fastify';
import type { Logger, RequestId } from '@decorum/core';
import { pino } from 'pino';

/**
 * Log paths that must never hold credentials, for the app's pino `redact` option. `createMcpApp`
 * applies them; add them to your own app's logger options
 * (`Fastify({ logger: { redact: [...REDACTED_LOG_PATHS] } })`) if you log request headers.
 */
export const REDACTED_LOG_PATHS: readonly string[] = Object.freeze([
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["proxy-authorization"]',
  'headers.authorization',
  'headers.cookie',
  'headers["proxy-authorization"]',
]);

/** What one HTTP exchange turned out to be, filled in as the pipeline learns it. */
export interface ExchangeRecord {
  readonly startedAt: number;
  mcpMethod?: string;
  mcpName?: string;
  rpcId?: RequestId;
  errorCode?: number;
  stream?: 'json' | 'sse';
  cancelled: boolean;
}

/**
 * Logs the exchange's one summary line — method, tool/resource/prompt name, status, duration —
 * through the request's logger, so it carries Fastify's request id. No header is ever logged.
 */
export function logExchange(request: FastifyRequest, reply: FastifyReply, record: ExchangeRecord, level: LogLevel): void {
  request.log[level](
    {
      mcpMethod: record.mcpMethod,
      mcpName: record.mcpName,
      rpcId: record.rpcId,
      statusCode: reply.raw.statusCode,
      responseTime: Math.round((performance.now() - record.startedAt) * 100) / 100,
      stream: record.stream,
      errorCode: record.errorCode,
      cancelled: record.cancelled || undefined,
    },
    record.cancelled ? 'MCP request cancelled by the client' : 'MCP request',
  );
}

const silent = pino({ level: 'silent' });

/**
 * The logger handed to the engine for one request (it becomes `ctx.log`): Fastify's request logger,
 * which carries the request id. Core wraps (never mutates) it to forward logs to the client, so
 * even Fastify's disabled logger, one shared object, is safe to hand out as it is.
 */
export function requestLogger(request: FastifyRequest): Logger {
  return request.log as unknown as Logger;
}

/** The server-wide logger given to `createServer`, under the same rule. */
export function serverLogger(appLog: FastifyBaseLogger): Logger {
  return appLog.child({}) !== appLog ? (appLog as unknown as Logger) : silent;
}
