// `npm test`: install if needed, build what the end-to-end tests spawn, provision the programs the
// selected tests start (redis-server, nginx), then run them.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { build, ensureInstalled, root } from './ensure-install.mjs';
import { PROGRAMS, missingMessage, provision } from './provision.mjs';

const jestArgs = process.argv.slice(2);
const jestCommand = [process.execPath, '--experimental-vm-modules', '--no-warnings=ExperimentalWarning', 'node_modules/jest/bin/jest.js'];

/**
 * The programs the selected tests start. The whole suite needs them all; a selection (`npm test --
 * <paths>`) needs those whose support function (`startRedis`, …) a selected test file calls.
 */
function neededPrograms() {
  if (jestArgs.length === 0) return PROGRAMS;
  const listed = spawnSync(jestCommand[0], [...jestCommand.slice(1), '--listTests', ...jestArgs], { cwd: root, encoding: 'utf8' });
  if (listed.status !== 0) return PROGRAMS;
  const sources = listed.stdout
    .split('\n')
    .filter(Boolean)
    .map((file) => readFileSync(file, 'utf8'));
  return PROGRAMS.filter((program) => sources.some((source) => source.includes(program.startedBy)));
}

ensureInstalled();
const needed = neededPrograms();
const found = provision(needed);
if (found.missing) {
  process.stderr.write(`${missingMessage(found.missing)}\n`);
  process.exit(1);
}
build();
// In CI the run must end with its verdict: a failed test can leave a child process (a server it
// spawned) behind, and Jest would wait for it forever. Locally, Jest's open-handle warning shows it.
const ciFlags = process.env.CI ? ['--forceExit'] : [];
const jest = spawnSync(jestCommand[0], [...jestCommand.slice(1), ...ciFlags, ...jestArgs], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, ...found.env },
});
process.exit(jest.status ?? 1);
