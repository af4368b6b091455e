import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reportOf, withoutLineNumbers } from '../../scripts/api-report.mjs';
import { ROOT } from '@decorum-internal/test-support';

// A declaration whose unexported type api-extractor can only note in the report's closing block, with its line.
const DECLARATIONS = [
  'declare type Hidden = { a: string };',
  "export type Visible = { readonly kind: 'x'; readonly entry: Hidden } | { readonly kind: 'y' };",
  'export declare function shown(): Visible;',
  'export {};', // only what is marked `export` is exported
].join('\n');

/** The API reports (`npm run api:check`) change when the API does, not when a line moves. */
describe('the API reports', () => {
  // Inside the repository, so that the compiler finds @types/node as it does for the packages.
  let folder: string;
  beforeAll(() => {
    mkdirSync(join(ROOT, 'node_modules/.cache'), { recursive: true });
    folder = mkdtempSync(join(ROOT, 'node_modules/.cache/api-report-test-'));
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'fixture', version: '1.0.0', types: 'index.d.ts' }));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  const reportFor = (declarations: string) => {
    writeFileSync(join(folder, 'index.d.ts'), declarations);
    const problems: string[] = [];
    const report = reportOf({ packageFolder: folder, types: join(folder, 'index.d.ts'), report: 'fixture.api.md' }, folder, problems);
    expect(problems).toEqual([]);
    return report;
  };

  test('moving a declaration down leaves the report as it was', () => {
    const before = reportFor(DECLARATIONS);
    expect(before).toMatch(/\/\/ index\.d\.ts(:\d+:\d+)? - \(ae-forgotten-export\) The symbol "Hidden"/); // in the closing block
    expect(reportFor(`// a comment\n\n${DECLARATIONS}`)).toBe(before);
  });

  test('a change of the API changes the report', () => {
    expect(reportFor(`${DECLARATIONS}\nexport declare const added: number;`)).not.toBe(reportFor(DECLARATIONS));
  });

  test('the closing warnings lose line and column, keep their file, and are sorted', () => {
    const report = [
      '## API Report File',
      '// Warnings were encountered during analysis:',
      '//',
      '// src/b.ts:9:1 - (ae-forgotten-export) The symbol "B" needs to be exported by the entry point index.d.ts',
      '// src/a.ts:120:33 - (ae-forgotten-export) The symbol "A" needs to be exported by the entry point index.d.ts',
      '',
      '// (No @packageDocumentation comment for this package)',
    ].join('\r\n');
    expect(withoutLineNumbers(report).split('\r\n')).toEqual([
      '## API Report File',
      '// Warnings were encountered during analysis:',
      '//',
      '// src/a.ts - (ae-forgotten-export) The symbol "A" needs to be exported by the entry point index.d.ts',
      '// src/b.ts - (ae-forgotten-export) The symbol "B" needs to be exported by the entry point index.d.ts',
      '',
      '// (No @packageDocumentation comment for this package)',
    ]);
  });
});
