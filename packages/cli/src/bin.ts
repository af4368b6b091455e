#!/usr/bin/env node
import 'reflect-metadata';
import { DecorumStartupError, type ServerOptions } from '@decorum/core';
import { createDefaultLogger, preloadValidators } from '@decorum/core/transport';
import { busFromUrl } from './bus-option.js';
import { collectServers } from './collect-servers.js';
import { printList } from './list-preview.js';
import { logFormat, prettyDestination } from './log-format.js';
import { collectServeOptions } from './serve-options.js';
import { CliError, loadModule } from './load-module.js';
import type { InstallOptions } from './install/install.js';
import { buildProgram, type McpServeOptions } from './program.js';

/** `--eras` and `--client-request-timeout` when given, over what the module's own options say. */
function eraOptions(options: McpServeOptions) {
  return {
    ...(options.eras === undefined ? {} : { eras: options.eras }),
    ...(options.clientRequestTimeout === undefined ? {} : { legacy: { clientRequestTimeoutMs: options.clientRequestTimeout } }),
  };
}

async function serve(options: McpServeOptions): Promise<void> {
  const loadedModule = await loadModule(options.module);
  const serverOptions = collectServeOptions(loadedModule, options.module);
  // Catalogue classes are added at run time (live.add), not served at start-up.
  const loaded = collectServers(loadedModule, options.module, new Set(serverOptions.catalogue));
  if (options.list) return printList(loaded, options.json);
  // A module's own logger wins; else readable lines for a person at a terminal, JSON for the rest.
  const pretty = serverOptions.logger === undefined && logFormat(options.logFormat) === 'pretty' ? prettyDestination() : undefined;
  // --watch builds the server itself, so it gets every server option here: the module's, the
  // command line's eras and the bus (a built server ignores what its transport is given later).
  const watched = options.watch ? await import('./watch.js') : undefined;
  const build = (built: ServerOptions) =>
    watched ? watched.watchModule(options.module, loaded, { serverOptions: built, transport: options.http ? 'http' : 'stdio' }).server : loaded;
  // Only the transport the run uses is loaded: a stdio server never loads Fastify or jose.
  if (!options.http) {
    const { serveStdio } = await import('@decorum/stdio');
    // (No await unless a bus is asked for: the stdio start-up stays as quick as without one.)
    const logger = pretty ? createDefaultLogger({ destination: pretty }) : serverOptions.logger;
    const notificationBus = options.bus === undefined ? serverOptions.notificationBus : await busFromUrl(options.bus, logger);
    const built = { ...serverOptions, ...eraOptions(options), notificationBus, logger };
    serveStdio(build(built), {
      ...built,
      maxLineBytes: options.maxLineBytes,
      ...(options.shutdownTimeout === undefined ? {} : { shutdownGraceMs: options.shutdownTimeout }),
    });
    // TypeBox's compiler loads on the first call that needs it, unless asked for sooner: a host
    // keeps its stdio servers idle most of the time, so its memory weighs more than one wait
    // (docs/perf-notes.md, "Figures behind source comments"). With --preload-validators it
    // loads in the background once serving (discovery and tools/list need no validator).
    if (options.preloadValidators) setTimeout(() => void preloadValidators(), 0);
    return;
  }
  const { createHttpLogger, serveHttp } = await import('@decorum/fastify');
  const logger = serverOptions.logger ?? createHttpLogger({ destination: pretty });
  const notificationBus = (await busFromUrl(options.bus, logger)) ?? serverOptions.notificationBus;
  const built = { ...serverOptions, ...eraOptions(options), notificationBus, logger };
  let served;
  try {
    served = await serveHttp(build(built), {
      ...built,
      host: options.host,
      port: options.port,
      path: options.path,
      shutdownGraceMs: options.shutdownTimeout,
      requestTimeout: options.requestTimeout,
      headersTimeout: options.headersTimeout,
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL')
      throw new CliError(`cannot listen on ${options.host}:${options.port}: ${(error as Error).message}`);
    throw error;
  }
  // The bound address goes to stderr (stdout stays free), so `--port 0` users and scripts can find it.
  const names = [...served.app.mcpServers.values()].map((s) => s.info.name).join(', ');
  process.stderr.write(`mcp-serve: serving ${names} over Streamable HTTP at ${served.url}\n`);
  await served.closed;
  process.exit(0);
}

/** `mcp-serve install …`: the module was imported for its name, and what it left open must not keep the command alive. */
async function install(options: InstallOptions): Promise<void> {
  await (await import('./install/install.js')).installServer(options);
  process.stdout.write('', () => process.exit(0));
}

buildProgram(serve, install)
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    // User-facing failures print one clear line; anything unexpected keeps its stack on stderr.
    const known = error instanceof CliError || error instanceof DecorumStartupError;
    process.stderr.write(`mcp-serve: ${known ? (error as Error).message : ((error as Error)?.stack ?? String(error))}\n`);
    process.exit(1);
  });
