import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOC = 'docs/request-pipeline.md';
const README_SECTION = '## Request pipeline';

/** Every ```ts block of the page, named by a preceding `<!-- file: name.ts -->` (else block-N.ts). */
function blocks(markdown: string): Array<{ name: string; code: string }> {
  const found = [...markdown.matchAll(/(?:<!-- file: ([\w.-]+\.ts) -->\n)?```ts\n([\s\S]*?)```/g)];
  return found.map((m, i) => ({ name: m[1] ?? `block-${i + 1}.ts`, code: m[2] }));
}

/** The page's TypeScript compiles as written, with the repository's compiler settings. */
test(`${DOC} and the README's "${README_SECTION.slice(3)}" section: every ts block type-checks`, () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf(`${README_SECTION}\n`);
  expect(start).toBeGreaterThanOrEqual(0);
  const section = readme.slice(start, readme.indexOf('\n## ', start + README_SECTION.length));
  const fromReadme = blocks(section).map((b, i) => ({ ...b, name: `readme-${i + 1}.ts` }));
  expect(fromReadme).toHaveLength(1);
  const snippets = [...blocks(readFileSync(join(ROOT, DOC), 'utf8')), ...fromReadme];
  expect(snippets.length).toBeGreaterThanOrEqual(6);
  const dir = mkdtempSync(join(ROOT, 'test/docs/.snippets-'));
  try {
    const files = snippets.map(({ name, code }) => {
      const file = join(dir, name);
      writeFileSync(file, code);
      return file;
    });
    const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
    const program = ts.createProgram(files, { ...config.options, noEmit: true });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file?.fileName.startsWith(dir))
      .map((d) => `${d.file!.fileName.slice(dir.length + 1)}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(problems).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
