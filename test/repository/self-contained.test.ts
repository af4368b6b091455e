import { spawnSync } from 'node:child_process';
import { escapesIn, findEscapes } from '../../scripts/check-self-contained.mjs';
import { ROOT } from '@decorum-internal/test-support';

/** A clone is the whole product: nothing in it may read a path outside the repository. */
describe('the repository stands alone', () => {
  test('no file points outside the repository', () => {
    expect(findEscapes()).toEqual([]);
  });

  test('the check CI runs exits 0 on this tree', () => {
    const run = spawnSync(process.execPath, ['scripts/check-self-contained.mjs'], { cwd: ROOT, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  test.each([
    // Built from parts, so that this file itself holds no path that climbs out to the brief's folder.
    ['test/spec/a.test.ts', `new URL('${'../'.repeat(3)}${'shared'}/spec/2026-07-28/', import.meta.url)`, 'leaves the repository'],
    ['scripts/a.mjs', "readFileSync('/work/shared/spec/DIGEST.md')", 'absolute path'], // self-contained: sample
    ['docs/a.md', 'see [the digest](../../brief/DIGEST.md)', 'leaves the repository'],
    ['test/a.test.ts', 'const spec = `${root}shared/spec/schema.json`', 'shared/'], // self-contained: sample
  ])('%s: %s is caught', (file, line, why) => {
    const problems = escapesIn(file, `ok\n${line}\n`);
    expect(escapesIn(file, `${line} // self-contained: sample`)).toEqual([]);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.join('\n')).toContain(why);
    expect(problems[0]).toMatch(new RegExp(`^${file.replace('.', '\\.')}:2: `));
  });

  test.each([
    ['test/spec/a.test.ts', "new URL('../spec-data/2026-07-28/', import.meta.url)"],
    ['packages/core/src/a.ts', "import { x } from '../errors/x.js';"],
    ['examples/weather/README.md', '[fastify](../../packages/fastify/README.md)'],
    ['test/a.test.ts', "const dir = mkdtempSync(join(tmpdir(), 'decorum-'))"],
  ])('%s: %s stays inside', (file, line) => {
    expect(escapesIn(file, line)).toEqual([]);
  });
});
