import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { codeBlocks, documentationFiles, ROOT } from '@decorum-internal/test-support';

/** The README is the front door: what Decorum is, the quick start, the tutorial and links; the rest lives in docs/. */
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const MAX_WORDS = 1_500;

/** The `mcpServers` entries of the ```json blocks of `file`: host configs shown to the reader. */
function hostEntries(file: string): Array<{ where: string; command: string; args: string[] }> {
  return codeBlocks(file)
    .filter((block) => block.info === 'json' && block.code.includes('"mcpServers"'))
    .flatMap((block) => {
      const servers = (JSON.parse(block.code) as { mcpServers: Record<string, { command: string; args?: string[] }> }).mcpServers;
      return Object.values(servers).map(({ command, args = [] }) => ({ where: `${file}:${block.line}`, command, args }));
    });
}

describe('the README', () => {
  test(`stays short (at most ${MAX_WORDS.toLocaleString('en')} words)`, () => {
    expect(README.split(/\s+/).filter(Boolean).length).toBeLessThanOrEqual(MAX_WORDS);
  });

  test('links the map of the guides, docs/index.md', () => {
    expect(README).toContain('](docs/index.md)');
  });

  test('every guide under docs/ is on the map', () => {
    const index = readFileSync(join(ROOT, 'docs/index.md'), 'utf8');
    const guides = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md') && name !== 'index.md');
    expect(guides.filter((name) => !index.includes(`](${name})`) && !index.includes(`](${name}#`))).toEqual([]);
  });

  test('registers the tutorial with a host through mcp-serve install, with every path absolute', () => {
    expect(README).toContain('npx mcp-serve install claude-desktop src/notes.ts');
    const entries = hostEntries('README.md');
    expect(entries).toHaveLength(1);
    for (const { command, args } of entries) {
      expect([command, ...args].filter((path) => !path.startsWith('/'))).toEqual([]);
      expect(args).toEqual([expect.stringMatching(/\/node_modules\/@decorum\/cli\/bin\/mcp-serve\.js$/), expect.stringMatching(/\/src\/notes\.ts$/)]);
    }
  });

  test('no host config in the documentation starts npx (a host runs it from its own folder, where npx asks the registry)', () => {
    const withNpx = documentationFiles()
      .flatMap(hostEntries)
      .filter(({ command, args }) => /(^|\/)npx$/.test(command) || args.includes('mcp-serve'));
    expect(withNpx.map(({ where }) => where)).toEqual([]);
  });
});
