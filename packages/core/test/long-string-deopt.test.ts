import { spawnSync } from 'node:child_process';
import { ROOT } from '@decorum-internal/test-support';

// The check of a long string's bytes (long-string-json.ts) once deoptimized on nearly every call
// once V8 had optimized its word loop on the stack: 39–120 times in this fixture's 2,000 answers,
// 1,708 times a second in the bench's 64 KiB echo, each time followed by a recompile. This runs the
// built package in a plain Node process with V8's deoptimization trace and counts them.
test('encoding long texts does not deoptimize the byte check again and again', () => {
  const run = spawnSync(process.execPath, ['--trace-deopt', 'packages/core/test/fixtures/encode-long-texts.mjs'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  expect(run.status).toBe(0);
  const deopts = run.stdout.split('\n').filter((line) => /deoptimizing .*<JSFunction (needsNoEscape|controlBits)\b/.test(line));
  expect(deopts.length).toBeLessThanOrEqual(2);
});
