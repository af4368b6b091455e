import { createRequire } from 'node:module';
import type { DestinationStream } from 'pino';

/** How `mcp-serve` writes its log lines on stderr. */
export type LogFormat = 'json' | 'pretty';

/** The environment variable that sets the log format when `--log-format` is not given. */
export const LOG_FORMAT_ENV = 'DECORUM_LOG_FORMAT';

/**
 * `--log-format` (or `DECORUM_LOG_FORMAT`) when given; else readable lines when stderr is a
 * terminal (a person reads it), JSON lines everywhere else (hosts, pipes and files parse it).
 */
export function logFormat(chosen: LogFormat | undefined, stderrIsTerminal = process.stderr.isTTY === true): LogFormat {
  return chosen ?? (stderrIsTerminal ? 'pretty' : 'json');
}

/**
 * The pretty-printing destination: pino-pretty writing synchronously to stderr (stdout is the
 * protocol's), colored on a terminal unless `NO_COLOR` is set. Loaded here, only when asked for:
 * a host's JSON start-up never pays for it.
 */
export function prettyDestination(): DestinationStream {
  const pretty = createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty');
  return pretty({
    destination: 2,
    sync: true,
    colorize: process.stderr.isTTY === true && process.env.NO_COLOR === undefined,
    ignore: 'pid,hostname',
    translateTime: 'SYS:HH:MM:ss.l',
  });
}
