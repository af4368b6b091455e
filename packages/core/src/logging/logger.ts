import { pino, type Logger } from 'pino';

export type { Logger } from 'pino';

/**
 * The default server logger: JSON lines on stderr, never stdout (stdout belongs to the stdio
 * transport). Level from `DECORUM_LOG_LEVEL`, default `info`.
 */
export function createDefaultLogger(): Logger {
  return pino({ name: 'decorum', level: process.env.DECORUM_LOG_LEVEL ?? 'info' }, pino.destination({ fd: 2, sync: true }));
}
