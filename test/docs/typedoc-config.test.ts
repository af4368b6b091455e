import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ROOT } from '@decorum-internal/test-support';

/** The parts of typedoc.json this test reads. */
interface TypedocConfig {
  entryPoints: string[];
  readme: string;
  projectDocuments?: string[];
}

const config = JSON.parse(readFileSync(join(ROOT, 'typedoc.json'), 'utf8')) as TypedocConfig;

/** The import specifier a user writes for an entry point: the package's name, plus the subpath its exports map gives the file. */
function specifierOf(entryPoint: string): string {
  const packageDir = dirname(dirname(entryPoint));
  const manifest = JSON.parse(readFileSync(join(ROOT, packageDir, 'package.json'), 'utf8')) as { name: string; exports?: Record<string, { import?: string }> };
  const built = `./dist/${basename(entryPoint).replace(/\.ts$/, '.js')}`;
  const subpath = Object.entries(manifest.exports ?? { '.': { import: built } }).find(([, target]) => target.import === built)?.[0];
  if (subpath === undefined) throw new Error(`${packageDir}/package.json exports nothing built from ${entryPoint}`);
  return subpath === '.' ? manifest.name : `${manifest.name}${subpath.slice(1)}`;
}

/** The `@module` name of a file's first doc comment (TypeDoc's module name), if it has one. */
function moduleTag(file: string): string | undefined {
  const opening = /^\/\*\*([\s\S]*?)\*\//.exec(readFileSync(join(ROOT, file), 'utf8'));
  return opening ? /@module\s+(\S+)/.exec(opening[1]!)?.[1]?.replace(/^\\@/, '@') : undefined;
}

describe('the TypeDoc reference (typedoc.json)', () => {
  test('names each module as users import it (@decorum/core, @decorum/client, …), not by its folder', () => {
    expect(config.entryPoints.length).toBeGreaterThanOrEqual(8);
    const named = config.entryPoints.map((entry) => [entry, moduleTag(entry)]);
    expect(named).toEqual(config.entryPoints.map((entry) => [entry, specifierOf(entry)]));
  });

  test('lands on the README, with every guide under docs/ as a document', () => {
    expect(config.readme).toBe('README.md');
    const guides = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md'));
    expect(guides).toContain('index.md');
    expect(config.projectDocuments).toEqual(['docs/*.md']);
    expect(existsSync(join(ROOT, config.readme))).toBe(true);
  });
});
