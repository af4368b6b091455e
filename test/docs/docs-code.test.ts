import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { codeBlocks, documentationFiles, FRAGMENT, TESTED_REGION, type CodeBlock, ROOT } from '@decorum-internal/test-support';

/**
 * Every ```ts block of the documentation compiles, with the project's own tsconfig.json, as one
 * program (one type-check for all blocks). Each block becomes a module of the git-ignored
 * .docs-check/ folder; the user's own server files that blocks import (`./weather.js`, …) are the
 * repository's examples, re-exported there under the names the docs use.
 */
const CHECK_DIR = join(ROOT, '.docs-check');
const USER_FILES: Record<string, string> = {
  'weather.ts': '../examples/weather/src/weather.js',
  'notes.ts': '../examples/notes/src/notes.js',
  'wizard.ts': '../examples/files-wizard/src/wizard.js',
  'everything.ts': '../examples/everything/src/everything.js',
};

const blocks = documentationFiles().flatMap(codeBlocks);
const typescriptBlocks = blocks.filter((block) => block.info === 'ts');

function compile(checked: CodeBlock[]): string[] {
  rmSync(CHECK_DIR, { recursive: true, force: true });
  mkdirSync(CHECK_DIR);
  for (const [name, target] of Object.entries(USER_FILES)) writeFileSync(join(CHECK_DIR, name), `export * from '${target}';\n`);
  const origin = new Map<string, CodeBlock>();
  checked.forEach((block, index) => {
    const file = join(CHECK_DIR, `${block.file.replace(/[/.]/g, '_')}-${index}.ts`);
    // `export {}` keeps each block a module of its own, whether or not it imports anything.
    writeFileSync(file, `${block.code}export {};\n`);
    origin.set(file, block);
  });
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.json'),
    { noEmit: true },
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  if (!config) throw new Error('tsconfig.json could not be read');
  // Docs are user code: node's types, not the tests' jest globals. A snippet declares names to show
  // them, so the repository's own noUnusedLocals does not apply to it.
  const program = ts.createProgram([...origin.keys()], { ...config.options, types: ['node'], noUnusedLocals: false });
  const problems = program.getOptionsDiagnostics().map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  for (const [file, block] of origin) {
    const source = program.getSourceFile(file)!;
    for (const diagnostic of [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]) {
      const { line } = source.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
      problems.push(`${block.file}:${block.line + line}: TS${diagnostic.code} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
    }
  }
  return problems;
}

describe('the code in the docs', () => {
  test('there are blocks to check, in every document that has TypeScript', () => {
    expect(typescriptBlocks.length).toBeGreaterThanOrEqual(10);
    const guides = ['docs/authoring.md', 'docs/serving.md', 'docs/testing.md', 'docs/extensions.md', 'docs/live-servers.md'];
    for (const file of ['README.md', ...guides, 'packages/fastify/README.md', 'packages/core/MRTR.md', 'packages/redis/README.md']) {
      expect(typescriptBlocks.some((block) => block.file === file)).toBe(true);
    }
  });

  test('TypeScript is fenced as ts (or ts fragment, ts region), so no block escapes the check', () => {
    const other = blocks.filter(
      (block) => /^(typescript|tsx?|mts|cts)\b/.test(block.info) && block.info !== 'ts' && block.info !== FRAGMENT && block.info !== TESTED_REGION,
    );
    expect(other.map((block) => `${block.file}:${block.line - 1}: \`\`\`${block.info}`)).toEqual([]);
  });

  test('every ts region block is, verbatim, the region of a test that runs it', () => {
    const regions = blocks.filter((block) => block.info === TESTED_REGION);
    const unmatched = regions.filter((block) => {
      const marker = /^<!-- region: ([a-z0-9-]+) -->$/.exec(readFileSync(join(ROOT, block.file), 'utf8').split('\n')[block.line - 3] ?? '');
      if (!marker) return true;
      // A package's README: its test/ folder; the root README and a guide under docs/: the repository's test/docs/.
      const testDir = join(ROOT, dirname(block.file) === 'docs' || block.file === 'README.md' ? 'test/docs' : join(dirname(block.file), 'test'));
      const tests = existsSync(testDir) ? readdirSync(testDir).filter((name) => name.endsWith('.test.ts')) : [];
      const dedent = (text: string) =>
        text
          .split('\n')
          .map((l) => l.replace(/^ {2}/, ''))
          .join('\n')
          .trim();
      return !tests.some((name) => {
        const region = new RegExp(`// #region ${marker[1]}\\n([\\s\\S]*?)\\s*// #endregion`).exec(readFileSync(join(testDir, name), 'utf8'));
        // A region inside a test is indented one level; one at the top of a module is not.
        return region !== null && (dedent(region[1]!) === block.code.trim() || region[1]!.trim() === block.code.trim());
      });
    });
    expect(unmatched.map((block) => `${block.file}:${block.line - 1}`)).toEqual([]);
  });

  // One program for all: the docs' blocks, plus one wrong sample that proves the check bites.
  const sample: CodeBlock = {
    file: 'sample.md',
    line: 40,
    info: 'ts',
    code: "import { Tool } from '@decorum/core';\nconst n: number = 'one';\nTool({ nme: 'x' });\n",
  };
  let problems: string[];
  beforeAll(() => {
    problems = compile([...typescriptBlocks, sample]);
  }, 120_000);

  test('every ts block type-checks with the project settings', () => {
    expect(problems.filter((problem) => !problem.startsWith('sample.md:'))).toEqual([]);
  });

  test('a wrong block is caught, with its document and line', () => {
    expect(problems.filter((problem) => problem.startsWith('sample.md:'))).toEqual([
      expect.stringMatching(/^sample\.md:41: TS2322 /),
      expect.stringMatching(/^sample\.md:42: TS2561 .*'nme'/),
    ]);
  });
});
