import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './stdio-process.js';

/**
 * The documentation whose code blocks are checked: README.md, each package's and example's
 * README, docs/*.md and packages/core/MRTR.md (paths relative to the repository root).
 */
export function documentationFiles(): string[] {
  const inFolder = (folder: string, pick: (name: string) => boolean) =>
    existsSync(join(ROOT, folder))
      ? readdirSync(join(ROOT, folder))
          .filter(pick)
          .sort()
          .map((name) => `${folder}/${name}`)
      : [];
  const readmes = (parent: string) =>
    inFolder(parent, () => true)
      .map((dir) => `${dir}/README.md`)
      .filter((file) => existsSync(join(ROOT, file)));
  return ['README.md', ...readmes('packages'), ...readmes('examples'), ...inFolder('docs', (name) => name.endsWith('.md')), 'packages/core/MRTR.md'];
}

/** One fenced code block of a markdown file. */
export interface CodeBlock {
  file: string;
  /** 1-based line of the block's first line of code (the line after the opening fence). */
  line: number;
  /** The fence's info string: `ts`, `ts fragment`, `sh`, … */
  info: string;
  code: string;
}

/** Every fenced block of `file`, in order. */
export function codeBlocks(file: string): CodeBlock[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const blocks: CodeBlock[] = [];
  let open: { info: string; line: number; code: string[] } | undefined;
  lines.forEach((text, index) => {
    if (!open) {
      const fence = /^```(.*)$/.exec(text);
      if (fence) open = { info: fence[1]!.trim(), line: index + 2, code: [] };
    } else if (/^```\s*$/.test(text)) {
      blocks.push({ file, line: open.line, info: open.info, code: `${open.code.join('\n')}\n` });
      open = undefined;
    } else {
      open.code.push(text);
    }
  });
  if (open) throw new Error(`${file}:${open.line - 1}: a code block is never closed`);
  return blocks;
}

/**
 * The opt-out marker: a block fenced as ```ts fragment is deliberately partial (a few members
 * shown out of their class, say) and is not compiled. Use it sparingly: a block that can be made
 * whole should be.
 */
export const FRAGMENT = 'ts fragment';

/**
 * A block fenced as ```ts region is a verbatim `// #region NAME` of a test file in the same
 * package's `test/` folder, named by the `<!-- region: NAME -->` line above the fence: that test
 * type-checks and runs it, with the imports and set-up the region shares with its neighbours.
 */
export const TESTED_REGION = 'ts region';
