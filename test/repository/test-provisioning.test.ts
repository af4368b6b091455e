import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT } from '@decorum-internal/test-support';

// `npm test` on a bare machine (scripts/provision.mjs): it finds redis-server and nginx wherever
// they are installed, installs them as root with apt-get, and otherwise stops at once with one line
// naming the packages. Run here against a fake PATH and a fake system root, never the machine's own.
const MISSING =
  'npm test needs redis-server and nginx: install them (Debian/Ubuntu: sudo apt-get install -y redis-server nginx) or put them on PATH, then run npm test again\n';

let scratch: string;
let bin: string;
let system: string;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'decorum-provision-'));
  bin = join(scratch, 'bin');
  system = join(scratch, 'root');
  mkdirSync(bin);
  mkdirSync(system);
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

/** An executable at `path`: a Node script (the fake PATH has no shell tools) running `body`. */
function program(path: string, body = ''): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `#!${process.execPath}\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

/** A fake apt-get that logs its arguments and, on `install`, puts the packages' binaries where Debian does under the fake root. */
function fakeAptGet(): string {
  const log = join(scratch, 'apt-get.log');
  program(
    join(bin, 'apt-get'),
    `const fs = require('node:fs');
const args = process.argv.slice(2);
fs.appendFileSync(${JSON.stringify(log)}, args.join(' ') + '\\n');
const where = { 'redis-server': '/usr/bin/redis-server', nginx: '/usr/sbin/nginx' };
if (args[0] === 'install') for (const pkg of args.filter((a) => where[a])) {
  const file = ${JSON.stringify(system)} + where[pkg];
  fs.mkdirSync(require('node:path').dirname(file), { recursive: true });
  fs.writeFileSync(file, '#!/bin/sh\\n', { mode: 0o755 });
}`,
  );
  return log;
}

/** Runs `script` on the fake PATH and system root, acting as user `uid`. */
function run(script: string, uid: number, env: NodeJS.ProcessEnv = {}) {
  const base = { ...process.env };
  // `npm test` hands the real paths to the tests; this run must find its own.
  delete base.DECORUM_REDIS_SERVER;
  delete base.DECORUM_NGINX;
  return spawnSync(process.execPath, [script], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...base, PATH: bin, DECORUM_PROVISION_ROOT: system, DECORUM_PROVISION_UID: String(uid), ...env },
  });
}

const provision = (uid: number, env?: NodeJS.ProcessEnv) => run('scripts/provision.mjs', uid, env);

describe('missing and not installable here: one line, before anything runs', () => {
  test('not root: exits 1 naming the packages, and never calls apt-get', () => {
    const log = fakeAptGet();
    const result = provision(1000);
    expect({ status: result.status, stdout: result.stdout, stderr: result.stderr }).toEqual({ status: 1, stdout: '', stderr: MISSING });
    expect(existsSync(log)).toBe(false);
  });

  test('root without apt-get: exits 1 naming the packages', () => {
    const result = provision(0);
    expect({ status: result.status, stdout: result.stdout, stderr: result.stderr }).toEqual({ status: 1, stdout: '', stderr: MISSING });
  });

  test('only the missing one is named', () => {
    program(join(bin, 'redis-server'));
    const result = provision(1000);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('npm test needs nginx: install it (Debian/Ubuntu: sudo apt-get install -y nginx) or put it on PATH, then run npm test again\n');
  });

  test('`npm test` itself stops with that line before Jest starts', () => {
    const result = run('scripts/test.mjs', 1000);
    expect({ status: result.status, stdout: result.stdout, stderr: result.stderr }).toEqual({ status: 1, stdout: '', stderr: MISSING });
  });
});

describe('found, and handed to the tests by absolute path', () => {
  test('on PATH', () => {
    const redis = program(join(bin, 'redis-server'));
    const nginx = program(join(bin, 'nginx'));
    const result = provision(1000);
    expect({ status: result.status, stdout: result.stdout, stderr: result.stderr }).toEqual({
      status: 0,
      stdout: `DECORUM_REDIS_SERVER=${redis}\nDECORUM_NGINX=${nginx}\n`,
      stderr: '',
    });
  });

  test('installed off PATH, where Debian puts them (nginx in /usr/sbin)', () => {
    const redis = program(join(system, 'usr/bin/redis-server'));
    const nginx = program(join(system, 'usr/sbin/nginx'));
    const result = provision(1000);
    expect(result.stdout).toBe(`DECORUM_REDIS_SERVER=${redis}\nDECORUM_NGINX=${nginx}\n`);
    expect(result.status).toBe(0);
  });

  test("installed elsewhere: dpkg's file list of the package says where", () => {
    program(join(bin, 'redis-server'));
    const nginx = program(join(system, 'opt/nginx/sbin/nginx'));
    // dpkg -L lists the package's files; this one answers only for nginx under the fake root.
    program(
      join(bin, 'dpkg'),
      `const [flag, root, list, pkg] = process.argv.slice(2);
if (flag !== '--root' || root !== ${JSON.stringify(system)} || list !== '-L' || pkg !== 'nginx') process.exit(1);
process.stdout.write('/.\\n/opt\\n/opt/nginx\\n/opt/nginx/sbin\\n/opt/nginx/sbin/nginx\\n/usr/share/doc/nginx\\n');`,
    );
    const result = provision(1000);
    expect(result.stdout).toBe(`DECORUM_REDIS_SERVER=${join(bin, 'redis-server')}\nDECORUM_NGINX=${nginx}\n`);
    expect(result.status).toBe(0);
  });

  test('an absolute path given in the environment wins', () => {
    program(join(bin, 'nginx'));
    program(join(bin, 'redis-server'));
    const nginx = program(join(scratch, 'custom/nginx'));
    const result = provision(1000, { DECORUM_NGINX: nginx });
    expect(result.stdout).toBe(`DECORUM_REDIS_SERVER=${join(bin, 'redis-server')}\nDECORUM_NGINX=${nginx}\n`);
  });

  test('root with apt-get: installs the missing packages in one apt-get run, then finds them', () => {
    const log = fakeAptGet();
    const result = provision(0);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`DECORUM_REDIS_SERVER=${join(system, 'usr/bin/redis-server')}\nDECORUM_NGINX=${join(system, 'usr/sbin/nginx')}\n`);
    expect(readFileSync(log, 'utf8')).toBe('update -qq\ninstall -y -qq --no-install-recommends redis-server nginx\n');
  });
});
