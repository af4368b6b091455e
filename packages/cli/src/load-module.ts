import { existsSync, statSync } from 'node:fs';
import { extname, resolve as resolvePath } from 'node:path';
import { pathToFileURL } from 'node:url';
import { registerTsHooks } from './ts-loader/register-hooks.js';
import { reloadUrl } from './ts-loader/reload-query.js';

/** A CLI failure with a message meant for the user (no stack). */
export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliError';
  }
}

/** The absolute path of the module file `path` names; a missing file is a {@link CliError} that names it. */
export function moduleFile(path: string): string {
  const file = resolvePath(path);
  if (!existsSync(file) || !statSync(file).isFile()) throw new CliError(`cannot find module file ${path} (resolved to ${file})`);
  return file;
}

/**
 * Imports the user's module: `.js`/`.mjs`/`.cjs` as they are, `.ts` through swc hooks that keep
 * decorator metadata. Fails with a message that names the file for a missing file or a module
 * that does not compile. `reload` (for `--watch`) imports it afresh, with the files it imports
 * from `reload.root`, rather than from the module cache.
 */
export async function loadModule(path: string, reload?: { version: number; root: string }): Promise<Record<string, unknown>> {
  const file = moduleFile(path);
  if (reload || ['.ts', '.mts', '.cts', '.tsx'].includes(extname(file))) registerTsHooks();
  try {
    return (await import(reload ? reloadUrl(file, reload.version, reload.root) : pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new CliError(`cannot load ${path}: ${message}`);
  }
}
