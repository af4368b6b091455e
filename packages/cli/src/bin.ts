#!/usr/bin/env node
import 'reflect-metadata';
import { DecorumStartupError } from '@decorum/core';
import { serveStdio } from '@decorum/stdio';
import { collectServers } from './collect-servers.js';
import { CliError, loadModule } from './load-module.js';
import { buildProgram, type ServeOptions } from './program.js';

async function serve(options: ServeOptions): Promise<void> {
  const servers = collectServers(await loadModule(options.module), options.module);
  if (options.http) throw new CliError('--http is not available yet in this build');
  serveStdio(servers, { maxLineBytes: options.maxLineBytes });
}

buildProgram(serve)
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    // User-facing failures print one clear line; anything unexpected keeps its stack on stderr.
    const known = error instanceof CliError || error instanceof DecorumStartupError;
    process.stderr.write(`mcp-serve: ${known ? (error as Error).message : ((error as Error)?.stack ?? String(error))}\n`);
    process.exit(1);
  });
