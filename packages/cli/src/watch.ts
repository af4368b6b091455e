import { dirname, extname, relative, resolve as resolvePath, sep } from 'node:path';
import { createServer, DecorumStartupError, StartupErrorCode, type DecorumServer, type ServerOptions, type ServerTarget } from '@decorum/core';
import type { Registry } from '@decorum/core/transport';
import { watch } from 'chokidar';
import { collectServers } from './collect-servers.js';
import { CliError, loadModule } from './load-module.js';
import { importAsReload, keepServingOnReloadErrors } from './reload-errors.js';

/** Files whose change may change what the module serves. */
const SOURCE = new Set(['.ts', '.mts', '.cts', '.tsx', '.js', '.mjs', '.cjs', '.json']);

/** Options of {@link watchModule}. */
export interface WatchOptions {
  /** How long the files must stay quiet before a reload (an editor's save is several events). Default 100 ms. */
  debounceMs?: number;
  /**
   * How long a reload's import may take (default 10,000 ms). A module whose top-level `await`
   * never settles would hold every later reload back; past this time the reload fails, the last
   * good version keeps serving, and the next change reloads again.
   */
  reloadTimeoutMs?: number;
  /** Where reload reports go (default stderr: stdout belongs to the stdio transport). */
  report?: (line: string) => void;
  /**
   * `createServer` options of the watched server: the module's `serverOptions` with the bus and
   * eras of the command line (a built server ignores the options given to its transport later).
   */
  serverOptions?: ServerOptions;
  /**
   * The transport the server is handed to. On `stdio` the line that says watching has begun also
   * says what is served and how to connect: stdout is the protocol, so nothing else shows it is up.
   */
  transport?: 'stdio' | 'http';
}

/** A server whose module is watched: hand `server` to a transport; `close()` stops watching. */
export interface WatchedModule {
  readonly server: DecorumServer;
  /** Resolves once the watcher is watching (changes before that are not seen). */
  readonly ready: Promise<void>;
  /** Stops watching (the server keeps serving). */
  close(): Promise<void>;
}

/** Hidden directories and `node_modules` under the module's directory are not the module's sources. */
function ignored(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel.split(sep).some((part) => part === 'node_modules' || (part.startsWith('.') && part !== '.' && part !== '..'));
}

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** What a registry serves, for a person: `2 tools, 1 prompt, 3 resources`. */
function served({ tools, prompts, fixedResources, templates }: Registry): string {
  return `${count(tools.size, 'tool')}, ${count(prompts.size, 'prompt')}, ${count(fixedResources.size + templates.length, 'resource')}`;
}

/** The first line of `--watch`: where it watches, and on stdio what it serves and the next step. */
function watchingLine(path: string, root: string, server: DecorumServer, transport: WatchOptions['transport']): string {
  const where = relative(process.cwd(), root) || '.';
  const watching = `mcp-serve: watching ${where.startsWith('..') ? root : where} for changes`;
  if (transport !== 'stdio') return watching;
  return `${watching}; serving ${served(server.registry)} over stdio (stdout carries the protocol) — connect a host: mcp-serve install <host> ${path}, or serve HTTP: add --http`;
}

/**
 * `mcp-serve MODULE --watch`: builds one server from the module's classes and, whenever a source
 * file in the module's directory tree changes, imports the module afresh (`loadModule` with a
 * reload count) and replaces what the server serves (`live.replace`). The server object stays, so
 * the transport keeps its process, port, connections and `subscriptions/listen` listeners, which
 * receive the list-changed notifications. A module that fails to load or to build, or whose import
 * does not finish within `reloadTimeoutMs`, changes nothing: the last good version keeps serving
 * and the reason is reported. An uncaught exception from a reloaded module's own async work is
 * reported and serving goes on (see `reload-errors.ts`).
 */
export function watchModule(path: string, servers: readonly ServerTarget[], options: WatchOptions = {}): WatchedModule {
  const timeoutMs = options.reloadTimeoutMs ?? 10_000;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1)
    throw new DecorumStartupError(StartupErrorCode.INVALID_NUMBER, `watchModule: reloadTimeoutMs must be a positive integer (got ${timeoutMs})`);
  const server = createServer(servers, options.serverOptions);
  const report = options.report ?? ((line: string) => process.stderr.write(`${line}\n`));
  const root = dirname(resolvePath(path));
  let version = 0;
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let pending = false;

  const reload = async (): Promise<void> => {
    if (running) {
      pending = true;
      return;
    }
    running = true;
    try {
      const targets = collectServers(await importWithinTimeout(++version), path);
      server.live.replace(targets);
      report(`mcp-serve: reloaded ${path} (${served(server.registry)})`);
    } catch (error) {
      report(`mcp-serve: reload of ${path} failed; still serving the last good version: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      running = false;
      if (pending) {
        pending = false;
        void reload();
      }
    }
  };

  /** The module's exports, or a failure once `timeoutMs` passed (the import stays pending: ESM cannot cancel it). */
  const importWithinTimeout = async (reload: number): Promise<Record<string, unknown>> => {
    let clock: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      const why = `its import did not finish within ${timeoutMs} ms (a top-level await that never settles?); the next change reloads again`;
      clock = setTimeout(() => reject(new CliError(why)), timeoutMs);
    });
    try {
      return await Promise.race([importAsReload(reload, () => loadModule(path, { version: reload, root })), timedOut]);
    } finally {
      clearTimeout(clock);
    }
  };
  const restoreErrors = keepServingOnReloadErrors((reload, error) =>
    report(
      `mcp-serve: ${path} (reload ${reload}) threw after its import (uncaught exception); still serving: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    ),
  );
  if (!restoreErrors) report('mcp-serve: node:domain is in use, so an uncaught exception of a reloaded module ends the process as any other does');

  const watcher = watch(root, { ignoreInitial: true, ignored: (file) => ignored(root, file) });
  watcher.on('all', (_event, file) => {
    if (!SOURCE.has(extname(file))) return;
    clearTimeout(timer);
    timer = setTimeout(() => void reload(), options.debounceMs ?? 100);
  });
  watcher.on('error', (error) => report(`mcp-serve: watching ${root} failed: ${error instanceof Error ? error.message : String(error)}`));
  const ready = new Promise<void>((resolve) =>
    watcher.once('ready', () => {
      report(watchingLine(path, root, server, options.transport));
      resolve();
    }),
  );
  return {
    server,
    ready,
    close: async () => {
      clearTimeout(timer);
      restoreErrors?.();
      await watcher.close();
    },
  };
}
