import type { Options } from '@swc/core';

/**
 * The one swc configuration Decorum compiles TypeScript with — for `mcp-serve`'s `.ts` loader,
 * the test runner and the benchmarks alike: legacy decorators and `design:*` metadata kept
 * (esbuild and tsx drop the metadata), ES modules out.
 */
export function swcOptions(filename?: string): Options {
  return {
    ...(filename ? { filename } : {}),
    sourceMaps: 'inline',
    jsc: {
      target: 'es2022',
      parser: { syntax: 'typescript', decorators: true, tsx: filename?.endsWith('.tsx') ?? false },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
      keepClassNames: true,
    },
    module: { type: 'es6' },
  };
}
