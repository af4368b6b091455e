import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '@decorum-internal/test-support';

// The bench builds HEAD with each of these patches applied (bench/commit-build.mjs) to measure what a
// step costs in the code as it is. A patch that no longer applies leaves its rows unmeasured in a
// whole run of `npm run bench`; this says so at the commit that broke it, with the hunk that failed.
describe('bench/patches apply to the code as it is', () => {
  const patches = readdirSync(join(ROOT, 'bench', 'patches')).filter((file) => file.endsWith('.patch'));

  test('there are patches to check', () => {
    expect(patches).toEqual(expect.arrayContaining(['same-code.patch', 'without-hardening.patch']));
  });

  test.each(patches)('%s applies (git apply --check)', (patch) => {
    const check = spawnSync('git', ['apply', '--check', join('bench', 'patches', patch)], { cwd: ROOT, encoding: 'utf8' });
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  });
});
