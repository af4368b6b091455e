import type { Logger } from 'pino';
import type { LoggingLevel } from '../protocol/types.js';
import { LOGGING_LEVELS } from '../protocol/types.js';

/** pino level name → MCP (RFC 5424) level. */
const PINO_TO_MCP: Record<string, LoggingLevel> = {
  trace: 'debug',
  debug: 'debug',
  info: 'info',
  warn: 'warning',
  error: 'error',
  fatal: 'critical',
};

export type LogSink = (level: LoggingLevel, data: unknown) => void;

function toData(args: unknown[]): unknown {
  const [first, ...rest] = args;
  if (typeof first === 'string') return rest.length ? { message: first, args: rest } : first;
  if (first instanceof Error) return { message: first.message, ...(typeof rest[0] === 'string' ? { msg: rest[0] } : {}) };
  if (typeof first === 'object' && first !== null) {
    return typeof rest[0] === 'string' ? { message: rest[0], ...(first as object) } : first;
  }
  return first ?? null;
}

/**
 * Makes a request's child logger also send `notifications/message` for entries at or above the
 * level the request asked for. Only called when the request's `_meta` carried a log level, so
 * requests that did not ask pay nothing. The child keeps logging to the server log as before.
 */
export function forwardLogsToClient(child: Logger, minimum: LoggingLevel, sink: LogSink): Logger {
  // A new object over the child, never the child itself: some loggers (Fastify's disabled one)
  // hand every request the same child, and forwarding must not leak into other requests.
  const forwarding = Object.create(child) as Logger;
  const floor = LOGGING_LEVELS.indexOf(minimum);
  for (const [pinoLevel, mcpLevel] of Object.entries(PINO_TO_MCP)) {
    if (LOGGING_LEVELS.indexOf(mcpLevel) < floor) continue;
    const original = (child as unknown as Record<string, (...a: unknown[]) => void>)[pinoLevel];
    Object.defineProperty(forwarding, pinoLevel, {
      configurable: true,
      writable: true,
      value(this: Logger, ...args: unknown[]) {
        sink(mcpLevel, toData(args));
        original.apply(this, args);
      },
    });
  }
  return forwarding;
}
