/**
 * Node module hooks that load TypeScript with swc, keeping what Decorum depends on: legacy
 * decorators and `design:*` metadata (esbuild and tsx drop the metadata). Registered by
 * `mcp-serve` before it imports a `.ts` module; plain `.js` never passes through here.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform } from '@swc/core';
import { RELOAD_PARAM, ROOT_PARAM } from './reload-query.js';
import { swcOptions } from './swc-options.js';

const TS_FILE = /\.(?:ts|mts|cts|tsx)$/;

interface ResolveContext {
  parentURL?: string;
}
type NextResolve = (specifier: string, context: ResolveContext) => Promise<{ url: string; format?: string }>;
type NextLoad = (url: string, context: object) => Promise<{ format: string; source: string | Buffer }>;

/** TypeScript sources import siblings as `./x.js` (NodeNext style): fall back to `./x.ts`. */
export async function resolve(specifier: string, context: ResolveContext, nextResolve: NextResolve) {
  return reloaded(await resolveTs(specifier, context, nextResolve), context.parentURL);
}

async function resolveTs(
  specifier: string,
  context: ResolveContext,
  nextResolve: NextResolve,
): Promise<{ url: string; format?: string; shortCircuit?: boolean }> {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    const fromTs = context.parentURL && TS_FILE.test(new URL(context.parentURL).pathname);
    if (fromTs && /^\.{1,2}\//.test(specifier) && specifier.endsWith('.js')) {
      const candidate = new URL(specifier.replace(/\.js$/, '.ts'), context.parentURL);
      if (existsSync(fileURLToPath(candidate))) return { url: candidate.href, shortCircuit: true };
    }
    throw error;
  }
}

/**
 * `mcp-serve --watch` imports the module again under a new URL (`reloadUrl`). The files it imports from inside DIR get the same
 * query, so they are evaluated afresh too; packages (and anything outside DIR) keep their one copy.
 */
function reloaded<T extends { url: string }>(resolved: T, parentURL: string | undefined): T {
  if (!parentURL?.includes(RELOAD_PARAM) || !resolved.url.startsWith('file:')) return resolved;
  const parent = new URL(parentURL);
  const root = parent.searchParams.get(ROOT_PARAM);
  const child = new URL(resolved.url);
  if (!parent.searchParams.has(RELOAD_PARAM) || root === null || child.search !== '') return resolved;
  const path = fileURLToPath(child);
  if (!path.startsWith(root.endsWith(sep) ? root : root + sep) || path.includes(`${sep}node_modules${sep}`)) return resolved;
  child.search = parent.search;
  return { ...resolved, url: child.href };
}

export async function load(url: string, context: object, nextLoad: NextLoad) {
  if (!url.startsWith('file:') || !TS_FILE.test(new URL(url).pathname)) return nextLoad(url, context);
  const filename = fileURLToPath(url);
  const source = await readFile(filename, 'utf8');
  let output;
  try {
    output = await transform(source, swcOptions(filename));
  } catch (error) {
    // swc reports a code frame, then its own cause and native backtrace: keep the code frame.
    const text = String((error as Error)?.message ?? error).split(/\n\s*(?:Caused by:|Stack backtrace:)/)[0];
    throw new SyntaxError(`${filename} does not compile:\n${text.trim()}`);
  }
  return { format: 'module', source: output.code, shortCircuit: true };
}
