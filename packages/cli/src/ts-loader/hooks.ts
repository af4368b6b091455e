/**
 * Node module hooks that load TypeScript with swc, keeping what Decorum depends on: legacy
 * decorators and `design:*` metadata (esbuild and tsx drop the metadata). Registered by
 * `mcp-serve` before it imports a `.ts` module; plain `.js` never passes through here.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { transform } from '@swc/core';
import { swcOptions } from './swc-options.js';

const TS_FILE = /\.(?:ts|mts|cts|tsx)$/;

interface ResolveContext { parentURL?: string }
type NextResolve = (specifier: string, context: ResolveContext) => Promise<{ url: string; format?: string }>;
type NextLoad = (url: string, context: object) => Promise<{ format: string; source: string | Buffer }>;

/** TypeScript sources import siblings as `./x.js` (NodeNext style): fall back to `./x.ts`. */
export async function resolve(specifier: string, context: ResolveContext, nextResolve: NextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    const fromTs = context.parentURL && TS_FILE.test(context.parentURL);
    if (fromTs && /^\.{1,2}\//.test(specifier) && specifier.endsWith('.js')) {
      const candidate = new URL(specifier.replace(/\.js$/, '.ts'), context.parentURL);
      if (existsSync(fileURLToPath(candidate))) return { url: candidate.href, shortCircuit: true };
    }
    throw error;
  }
}

export async function load(url: string, context: object, nextLoad: NextLoad) {
  if (!url.startsWith('file:') || !TS_FILE.test(url)) return nextLoad(url, context);
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
