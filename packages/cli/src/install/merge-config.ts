import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { CliError } from '../load-module.js';
import type { HostConfig } from './hosts.js';
import type { ServerEntry } from './server-entry.js';
import { isJsonObject as isPlainObject } from '@decorum/core/transport';

/** What {@link mergeServerEntry} did. */
export interface MergeResult {
  /** The file written (symlinks resolved). */
  file: string;
  /** Whether an entry of that name was there before (and is now replaced). */
  replaced: boolean;
}

/** The config as it is on disk: `{}` for a missing or empty file; a file that is not a JSON object is refused. */
function readConfig(file: string): Record<string, unknown> {
  if (!existsSync(file)) return {};
  const text = readFileSync(file, 'utf8');
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CliError(`${file} is not valid JSON (${(error as Error).message}); fix it, then run mcp-serve install again (nothing was written)`);
  }
  if (!isPlainObject(parsed)) throw new CliError(`${file} does not hold a JSON object; fix it, then run mcp-serve install again (nothing was written)`);
  return parsed;
}

/**
 * Adds (or replaces) the server `name` in the host's config file, keeping every other entry and
 * setting as they were. The file is written whole to a temporary sibling and renamed over, so a
 * host reading it never sees half a file.
 */
export function mergeServerEntry(host: HostConfig, file: string, name: string, entry: ServerEntry): MergeResult {
  const target = existsSync(file) ? realpathSync(file) : file;
  const config = readConfig(target);
  const servers = config[host.key] ?? {};
  if (!isPlainObject(servers)) throw new CliError(`${target}: "${host.key}" is not an object; fix it, then run mcp-serve install again (nothing was written)`);
  const replaced = Object.prototype.hasOwnProperty.call(servers, name);
  config[host.key] = { ...servers, [name]: entry };
  mkdirSync(dirname(target), { recursive: true });
  const temporary = `${target}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(config, null, 2)}\n`);
  renameSync(temporary, target);
  return { file: target, replaced };
}
