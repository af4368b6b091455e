import { resolve as resolvePath } from 'node:path';
import { createServer } from '@decorum/core';
import { pino } from 'pino';
import { collectServers } from '../collect-servers.js';
import { CliError, loadModule, moduleFile } from '../load-module.js';
import { collectServeOptions } from '../serve-options.js';
import { HOSTS } from './hosts.js';
import { mergeServerEntry } from './merge-config.js';
import { serverEntry } from './server-entry.js';

/** What `mcp-serve install <host> <module> [--name N] [--print] [--config FILE] [-- …args]` asked for. */
export interface InstallOptions {
  /** `claude-desktop`, `claude-code`, `cursor` or `vscode`. */
  host: string;
  /** The module `mcp-serve` will serve (made absolute). */
  module: string;
  /** More `mcp-serve` arguments for the host to pass (what followed `--`). */
  extra: string[];
  /** The entry's name in the host's config; default: the name the server announces. */
  name?: string;
  /** Only print the config snippet, write nothing. */
  print: boolean;
  /** The config file to merge into, instead of the host's own. */
  config?: string;
}

/** The name the module's servers announce (`serverInfo.name`): the module is loaded and built as `mcp-serve` would. */
async function announcedName(path: string): Promise<string> {
  const loaded = await loadModule(path);
  const serveOptions = collectServeOptions(loaded, path);
  const targets = collectServers(loaded, path, new Set(serveOptions.catalogue));
  return createServer(targets, { ...serveOptions, logger: pino({ level: 'silent' }) }).info.name;
}

/**
 * Registers a module with an MCP host: builds the host's stdio entry with absolute paths (this Node,
 * the installed `mcp-serve` launcher, the module), then prints it (`print`) or merges it into the
 * host's config file, keeping every other entry. Reports on `out`.
 */
export async function installServer(options: InstallOptions, out: (text: string) => void = (text) => process.stdout.write(text)): Promise<void> {
  const host = HOSTS.get(options.host);
  if (host === undefined) throw new CliError(`unknown host "${options.host}": mcp-serve install knows ${[...HOSTS.keys()].join(', ')}`);
  const file = moduleFile(options.module);
  const name = options.name ?? (await announcedName(options.module));
  if (name.trim() === '') throw new CliError('--name must not be empty');
  const entry = serverEntry(host, file, options.extra);
  if (options.print) {
    out(`${JSON.stringify({ [host.key]: { [name]: entry } }, null, 2)}\n`);
    return;
  }
  const merged = mergeServerEntry(host, resolvePath(options.config ?? host.configFile(process.cwd())), name, entry);
  out(
    `mcp-serve: ${merged.replaced ? 'replaced' : 'added'} the server "${name}" in ${merged.file} (${host.label} config, key "${host.key}"):\n` +
      `${JSON.stringify(entry, null, 2)}\nNext: ${host.nextStep}.\n`,
  );
}
