import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { DECORUM_PACKAGES, THIRD_PARTY } from './versions.js';

const TEMPLATE = new URL('../template/', import.meta.url);
const OWN_VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** Template files whose name npm would not publish as it is. */
const RENAMED: Record<string, string> = { _gitignore: '.gitignore' };

/** Options of {@link scaffold}. */
export interface ScaffoldOptions {
  /** The new project's folder; it must not exist or be empty. */
  directory: string;
  /** The package name (default: the folder's name). */
  name?: string;
  /**
   * A folder of `npm pack` tarballs (`decorum-core-0.1.0.tgz`, …) to depend on instead of the
   * registry: for trying unreleased packages, and for our own tests.
   */
  decorumFrom?: string;
}

/** A user mistake, reported without a stack. */
export class ScaffoldError extends Error {
  override name = 'ScaffoldError';
}

/** The dependency spec of one `@decorum/*` package: a registry range, or `file:` a tarball. */
function decorumSpec(name: string, tarballs: string | undefined, projectDir: string): string {
  if (tarballs === undefined) return `^${OWN_VERSION}`;
  const prefix = `${name.replace('@', '').replace('/', '-')}-`;
  const found = readdirSync(tarballs).filter((f) => f.startsWith(prefix) && f.endsWith('.tgz') && /^\d/.test(f.slice(prefix.length)));
  if (found.length !== 1)
    throw new ScaffoldError(
      `--decorum-from ${tarballs}: expected one ${prefix}<version>.tgz (from npm pack), found ${found.length ? found.join(', ') : 'none'}`,
    );
  return `file:${relative(projectDir, join(tarballs, found[0])).split('\\').join('/')}`;
}

/** The generated `package.json`: the scripts for stdio, HTTP, reload, preview, build and test. */
function manifest(name: string, decorum: Record<string, string>): object {
  return {
    name,
    version: '0.1.0',
    private: true,
    type: 'module',
    scripts: {
      start: 'mcp-serve src/server.ts',
      'start:http': 'mcp-serve src/server.ts --http --port 3000',
      dev: 'mcp-serve src/server.ts --watch',
      list: 'mcp-serve src/server.ts --list',
      build: 'tsc',
      typecheck: 'tsc --noEmit',
      test: 'tsc && node --test test/server.test.mjs',
    },
    engines: { node: '>=20.19' },
    dependencies: { ...decorum, ...THIRD_PARTY.dependencies },
    devDependencies: { ...THIRD_PARTY.devDependencies },
  };
}

function copyTemplate(from: URL, to: string, name: string, written: string[]): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from)) {
    const source = new URL(entry, from);
    const target = join(to, RENAMED[entry] ?? entry);
    if (statSync(source).isDirectory()) {
      copyTemplate(new URL(`${entry}/`, from), target, name, written);
      continue;
    }
    writeFileSync(target, readFileSync(source, 'utf8').replaceAll('__NAME__', name));
    written.push(target);
  }
}

/** Writes a new project; returns the files written. */
export function scaffold(options: ScaffoldOptions): string[] {
  const directory = resolve(options.directory);
  if (existsSync(directory) && (!statSync(directory).isDirectory() || readdirSync(directory).length > 0)) {
    throw new ScaffoldError(`${options.directory} already exists and is not an empty folder: choose a new name`);
  }
  const name = options.name ?? basename(directory);
  if (!/^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/.test(name) || name.length > 214) {
    throw new ScaffoldError(`${JSON.stringify(name)} is not a valid npm package name (lower case, digits, - . _ ~): pass --name`);
  }
  const tarballs = options.decorumFrom === undefined ? undefined : resolve(options.decorumFrom);
  if (tarballs !== undefined && !(existsSync(tarballs) && statSync(tarballs).isDirectory()))
    throw new ScaffoldError(`--decorum-from ${options.decorumFrom} is not a folder`);
  const decorum = Object.fromEntries(DECORUM_PACKAGES.map((pkg) => [pkg, decorumSpec(pkg, tarballs, directory)]));
  const written: string[] = [];
  copyTemplate(TEMPLATE, directory, name, written);
  const packageJson = join(directory, 'package.json');
  writeFileSync(packageJson, `${JSON.stringify(manifest(name, decorum), null, 2)}\n`);
  written.push(packageJson);
  return written;
}
