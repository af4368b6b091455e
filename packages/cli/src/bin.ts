#!/usr/bin/env node
import 'reflect-metadata';
import { DecorumStartupError } from '@decorum/core';
import { createHttpLogger, serveHttp } from '@decorum/fastify';
import { serveStdio } from '@decorum/stdio';
import { busFromUrl } from './bus-option.js';
import { collectCatalogue } from './collect-catalogue.js';
import { collectServers } from './collect-servers.js';
import { CliError, loadModule } from './load-module.js';
import { buildProgram, type ServeOptions } from './program.js';

async function serve(options: ServeOptions): Promise<void> {
  const exports = await loadModule(options.module);
  const catalogue = collectCatalogue(exports, options.module);
  const servers = collectServers(exports, options.module, new Set(catalogue));
  if (!options.http) {
    serveStdio(servers, { maxLineBytes: options.maxLineBytes, catalogue, notificationBus: await busFromUrl(options.bus) });
    return;
  }
  const logger = createHttpLogger();
  const notificationBus = await busFromUrl(options.bus, logger);
  let served;
  try {
    served = await serveHttp(servers, { host: options.host, port: options.port, path: options.path, shutdownGraceMs: options.shutdownTimeout, logger, catalogue, notificationBus });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') throw new CliError(`cannot listen on ${options.host}:${options.port}: ${(error as Error).message}`);
    throw error;
  }
  // The bound address goes to stderr (stdout stays free), so `--port 0` users and scripts can find it.
  const names = [...served.app.mcpServers.values()].map((s) => s.info.name).join(', ');
  process.stderr.write(`mcp-serve: serving ${names} over Streamable HTTP at ${served.url}\n`);
  await served.closed;
  process.exit(0);
}

buildProgram(serve)
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    // User-facing failures print one clear line; anything unexpected keeps its stack on stderr.
    const known = error instanceof CliError || error instanceof DecorumStartupError;
    process.stderr.write(`mcp-serve: ${known ? (error as Error).message : ((error as Error)?.stack ?? String(error))}\n`);
    process.exit(1);
  });
