import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const README = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
const EXAMPLES = readFileSync(fileURLToPath(new URL('./readme-examples.test.ts', import.meta.url)), 'utf8');

/** The README's ```ts blocks are regions of readme-examples.test.ts, which typechecks and runs. */
test('every ts block of the client README is a tested region, verbatim', () => {
  const blocks = [...README.matchAll(/<!-- region: ([a-z-]+) -->\n```ts\n([\s\S]*?)```/g)];
  expect(blocks.map((b) => b[1])).toEqual(['imports', 'client', 'test-client', 'host']);
  expect([...README.matchAll(/```ts\n/g)]).toHaveLength(blocks.length);
  for (const [, name, code] of blocks) {
    const region = new RegExp(`// #region ${name}\\n([\\s\\S]*?)\\s*// #endregion`).exec(EXAMPLES);
    expect(region).not.toBeNull();
    const dedent = (text: string) => text.split('\n').map((l) => l.replace(/^ {2}/, '')).join('\n').trim();
    expect(code.trim()).toBe(dedent(region![1]));
  }
});
