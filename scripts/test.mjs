// `npm test`: install if needed, build what the end-to-end tests spawn, then run every test.
import { spawnSync } from 'node:child_process';
import { build, ensureInstalled, root } from './ensure-install.mjs';

ensureInstalled();
build();
// In CI the run must end with its verdict: a failed test can leave a child process (a server it
// spawned) behind, and Jest would wait for it forever. Locally, Jest's open-handle warning shows it.
const ciFlags = process.env.CI ? ['--forceExit'] : [];
const jest = spawnSync(
  process.execPath,
  ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning', 'node_modules/jest/bin/jest.js', ...ciFlags, ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
process.exit(jest.status ?? 1);
