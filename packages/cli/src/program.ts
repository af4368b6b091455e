import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { LOG_FORMAT_ENV, type LogFormat } from './log-format.js';
import { installCommand } from './install/command.js';
import type { InstallOptions } from './install/install.js';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

/** What the `mcp-serve` command line asked for. */
export interface McpServeOptions {
  module: string;
  http: boolean;
  host: string;
  port: number;
  path: string;
  /** HTTP: on SIGTERM/SIGINT, how long in-flight requests may still finish. */
  /** Unset: each transport's own default (HTTP 5000 ms, stdio 2000 ms). */
  shutdownTimeout?: number;
  /** HTTP: how long a client may take to send a whole request (0 = no limit). */
  requestTimeout: number;
  /** HTTP: how long a client may take to send the request headers. */
  headersTimeout: number;
  /** stdio: the longest accepted line in bytes. */
  maxLineBytes: number;
  /**
   * stdio: load TypeBox's compiler in the background once serving, so the first validated call
   * does not wait for it, at the price of its idle memory (docs/perf-notes.md). HTTP always does.
   */
  preloadValidators: boolean;
  /** Print what the list methods would serve, then exit (see `list-preview.ts`). */
  list: boolean;
  /** With `list`: the exact result pages as JSON. */
  json: boolean;
  /** Re-import the module when it (or a file it imports) changes, and keep serving (see `watch.ts`). */
  watch: boolean;
  /** Which protocol eras to serve: `dual` (default), `modern` or `legacy`; unset leaves the module's own options. */
  eras?: 'dual' | 'modern' | 'legacy';
  /** Legacy sessions: how long a client has to answer an elicitation, sampling or roots request (ms). */
  clientRequestTimeout?: number;
  /** The notification bus shared with the other instances (`redis://…`), from `--bus` or `DECORUM_BUS_URL`. */
  bus?: string;
  /** Log lines on stderr, from `--log-format` or `DECORUM_LOG_FORMAT`; unset: pretty on a terminal, else JSON. */
  logFormat?: LogFormat;
}

function eras(value: string): NonNullable<McpServeOptions['eras']> {
  if (value === 'dual' || value === 'modern' || value === 'legacy') return value;
  throw new InvalidArgumentError('must be dual, modern or legacy');
}

function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a positive integer');
  return n;
}

function busUrl(value: string): string {
  if (!/^rediss?:\/\/[^/\s]/.test(value)) throw new InvalidArgumentError('must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379');
  return value;
}

function logFormatValue(value: string): LogFormat {
  if (value === 'json' || value === 'pretty') return value;
  throw new InvalidArgumentError('must be json or pretty');
}

function nonNegativeInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('must be an integer ≥ 0');
  return n;
}

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('must be an integer from 0 to 65535');
  return n;
}

/**
 * `mcp-serve MODULE [--eras dual|modern|legacy] [--shutdown-timeout MS] [--http [--host H] [--port P] [--path /mcp]] [--bus redis://HOST:PORT]`.
 * stdio is the default; the HTTP options are parsed here so the command line keeps one shape.
 * `mcp-serve install …` is a subcommand; with positional options, a serving option given after it
 * is an error there instead of a serving option silently dropped.
 */
export function buildProgram(
  onServe: (options: McpServeOptions) => Promise<void>,
  // Loaded only when asked for: serving never pays for the install code.
  onInstall: (options: InstallOptions) => Promise<void> = async (options) => (await import('./install/install.js')).installServer(options),
): Command {
  return new Command('mcp-serve')
    .description('Serve the Decorum MCP servers exported by MODULE (a .js file, or .ts compiled on the fly with decorator metadata)')
    .version(pkg.version, '-v, --version')
    .argument('<module>', 'path of the module whose exported decorated classes to serve')
    .option('--http', 'serve Streamable HTTP instead of stdio', false)
    .option('--host <host>', 'HTTP interface to bind', '127.0.0.1')
    .option('--port <port>', 'HTTP port', port, 3000)
    .option('--path <path>', 'HTTP endpoint path', '/mcp')
    .option(
      '--shutdown-timeout <ms>',
      'on SIGTERM/SIGINT, how long in-flight requests may finish before they are answered with an error and the server closes (default: HTTP 5000, stdio 2000)',
      positiveInteger,
    )
    .option(
      '--request-timeout <ms>',
      'HTTP: a client must send its whole request (headers and body) within this time, else 408 and the connection closes (0 = no limit)',
      nonNegativeInteger,
      30_000,
    )
    .option('--headers-timeout <ms>', 'HTTP: a client must send the request headers within this time', positiveInteger, 10_000)
    .option('--max-line-bytes <bytes>', 'stdio: longest accepted message line', positiveInteger, 4 * 1024 * 1024)
    .option(
      '--preload-validators',
      "stdio: load TypeBox's validator compiler in the background once serving (the first call then does not wait ~0.25 s for it; costs ~16 MiB while idle)",
      false,
    )
    .option('--list', 'print the tools, resources, resource templates and prompts (with their schemas) as the list methods serve them, then exit', false)
    .option('--json', 'with --list: print the exact result pages as JSON', false)
    .option('--watch', 're-import MODULE when it or a file it imports changes, keeping the process, port and listeners', false)
    .option('--eras <eras>', 'protocol eras: dual (2026-07-28 and initialize-based 2025-11-25 sessions; the default), modern or legacy', eras)
    .option(
      '--client-request-timeout <ms>',
      'legacy sessions: how long a client has to answer an elicitation, sampling or roots request (default 300000)',
      positiveInteger,
    )
    .addOption(
      new Option(
        '--bus <url>',
        'share change notifications, live changes, rate-limit counts and tasks with the other instances through Redis (needs @decorum/redis)',
      )
        .env('DECORUM_BUS_URL')
        .argParser(busUrl),
    )
    .addOption(
      new Option('--log-format <format>', 'log lines on stderr: json or pretty (default: pretty when stderr is a terminal, else json)')
        .env(LOG_FORMAT_ENV)
        .argParser(logFormatValue),
    )
    .showHelpAfterError()
    .enablePositionalOptions()
    .addCommand(installCommand(onInstall))
    .action(async (module: string, opts: Omit<McpServeOptions, 'module'>) => onServe({ module, ...opts }));
}
