// What the tests need beyond Node and npm, found or installed before Jest starts, so that a failed
// test never means only "a package is missing". One row per program; Chromium will be one more row.
//   node scripts/provision.mjs   prints NAME=/absolute/path per program, or fails with one line.
import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The programs the suite starts: the binary's name, the Debian package that ships it, where Debian
 * puts it (nginx lives in /usr/sbin, which a non-login PATH lacks), the environment variable that
 * hands its absolute path to the tests, and the test/support function that starts it.
 */
export const PROGRAMS = [
  { binary: 'redis-server', debian: 'redis-server', paths: ['/usr/bin/redis-server'], env: 'DECORUM_REDIS_SERVER', startedBy: 'startRedis' },
  { binary: 'nginx', debian: 'nginx', paths: ['/usr/sbin/nginx'], env: 'DECORUM_NGINX', startedBy: 'startNginx' },
];

/** Overrides for the provisioning test: the user id to act as, and the root the Debian paths are under. */
const uid = () => (process.env.DECORUM_PROVISION_UID !== undefined ? Number(process.env.DECORUM_PROVISION_UID) : process.getuid?.());
const systemRoot = () => process.env.DECORUM_PROVISION_ROOT ?? '/';

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function onPath(binary) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) if (dir && executable(join(dir, binary))) return join(dir, binary);
  return undefined;
}

/** The files dpkg says the package installed (empty when dpkg is not on PATH or the package is not installed). */
function dpkgFiles(debian) {
  const dpkg = onPath('dpkg');
  if (!dpkg) return [];
  const listed = spawnSync(dpkg, ['--root', systemRoot(), '-L', debian], { encoding: 'utf8' });
  return listed.status === 0 ? listed.stdout.split('\n') : [];
}

/** The absolute path of a program: its environment variable, then PATH, then where Debian puts it, then dpkg's list. */
export function locate(program) {
  const given = process.env[program.env];
  if (given && executable(given)) return given;
  return (
    onPath(program.binary) ??
    program.paths.map((path) => join(systemRoot(), path)).find(executable) ??
    dpkgFiles(program.debian)
      .filter((file) => file.endsWith(`/${program.binary}`))
      .map((file) => join(systemRoot(), file))
      .find(executable)
  );
}

/** The absolute path of the program named `binary` (a row of PROGRAMS) for test support; throws the one-line message when it is missing. */
export function programPath(binary) {
  const program = PROGRAMS.find((row) => row.binary === binary);
  const path = locate(program);
  if (!path) throw new Error(missingMessage([program]));
  return path;
}

function aptInstall(packages) {
  const apt = onPath('apt-get');
  process.stderr.write(`Installing ${packages.join(' ')} for the tests (apt-get)…\n`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // dpkg's progress lines go nowhere; errors (stderr) stay visible.
  execFileSync(apt, ['update', '-qq'], { stdio: ['ignore', 'ignore', 2], env });
  execFileSync(apt, ['install', '-y', '-qq', '--no-install-recommends', ...packages], { stdio: ['ignore', 'ignore', 2], env });
}

/** The one line that says what to install, when this process cannot install it itself. */
export function missingMessage(missing) {
  const names = missing.map((program) => program.binary).join(' and ');
  const packages = missing.map((program) => program.debian).join(' ');
  const them = missing.length === 1 ? 'it' : 'them';
  return `npm test needs ${names}: install ${them} (Debian/Ubuntu: sudo apt-get install -y ${packages}) or put ${them} on PATH, then run npm test again`;
}

/**
 * Finds `programs`, installing the missing ones with apt-get when this process is root and has it
 * (as CI is). Returns the environment variables that give the tests their absolute paths, or
 * `{ missing }` when some cannot be had here.
 */
export function provision(programs = PROGRAMS) {
  let missing = programs.filter((program) => !locate(program));
  if (missing.length > 0 && uid() === 0 && onPath('apt-get')) {
    aptInstall(missing.map((program) => program.debian));
    missing = programs.filter((program) => !locate(program));
  }
  if (missing.length > 0) return { missing };
  return { env: Object.fromEntries(programs.map((program) => [program.env, locate(program)])) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const found = provision();
  if (found.missing) {
    process.stderr.write(`${missingMessage(found.missing)}\n`);
    process.exit(1);
  }
  for (const [name, path] of Object.entries(found.env)) process.stdout.write(`${name}=${path}\n`);
}
