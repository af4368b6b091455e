// Installs the locked dependencies when node_modules is missing or older than the lock file,
// so that `npm start` and `npm test` work as the first commands on a fresh clone.
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const marker = `${root}node_modules/.package-lock.json`;
const lock = `${root}package-lock.json`;

export function ensureInstalled() {
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  process.stderr.write('Installing dependencies from package-lock.json (npm ci)…\n');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: ['ignore', 2, 2] });
}

export function build() {
  execFileSync('npx', ['tsc', '-b', 'tsconfig.build.json'], { cwd: root, stdio: ['ignore', 2, 2] });
}

export { root };
