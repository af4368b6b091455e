import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger } from 'pino';

/** Options of {@link createDefaultLogger}. */
export interface DefaultLoggerOptions {
  /** The level; default `DECORUM_LOG_LEVEL`, else `info`. `'silent'` logs nothing. */
  level?: string;
  /** Where lines go; default stderr, written synchronously (a runner may pass a pretty-printing stream). */
  destination?: DestinationStream;
}

/**
 * The default server logger: JSON lines on stderr, never stdout (stdout belongs to the stdio
 * transport). Level from `DECORUM_LOG_LEVEL`, default `info`.
 */
export function createDefaultLogger(options: DefaultLoggerOptions = {}): Logger {
  return pino(
    { name: 'decorum', level: options.level ?? process.env.DECORUM_LOG_LEVEL ?? 'info' },
    options.destination ?? pino.destination({ fd: 2, sync: true }),
  );
}
