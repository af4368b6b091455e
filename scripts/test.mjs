// `npm test`: install if needed, build what the end-to-end tests spawn, then run every test.
import { spawnSync } from 'node:child_process';
import { build, ensureInstalled, root } from './ensure-install.mjs';

ensureInstalled();
build();
const jest = spawnSync(process.execPath, ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning', 'node_modules/jest/bin/jest.js', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(jest.status ?? 1);
