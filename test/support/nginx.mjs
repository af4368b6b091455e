// A throw-away nginx load balancer for tests: docs/scaling.md's recipe over the given upstream
// endpoints, a generated config in a temp dir (-p prefix, daemon off, pid and error log there),
// a free port.
// Fails (never skips) when nginx is not installed: `npm test` installs it (scripts/provision.mjs) and
// passes its absolute path, which is found the same way here.
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.mjs';
import { programPath } from '../../scripts/provision.mjs';

/** docs/scaling.md's nginx recipe: the ```nginx block after `<!-- check: nginx -->`. */
function recipe() {
  const guide = readFileSync(new URL('../../docs/scaling.md', import.meta.url), 'utf8');
  const found = /<!-- check: nginx -->\n```nginx\n([\s\S]*?)```/.exec(guide);
  if (!found) throw new Error('docs/scaling.md has no nginx recipe (<!-- check: nginx --> then a ```nginx block)');
  return found[1];
}

/**
 * A whole nginx.conf: the recipe as written, with its upstream servers replaced by the
 * test's, its `listen` by a free port on 127.0.0.1, inside a main context of test paths.
 */
function config(dir, port, upstreams) {
  let replaced = 0;
  const site = recipe()
    .replace(
      /^(\s*)server\s+\S+:\d+;[^\n]*\n(?:\s*server\s+\S+:\d+;[^\n]*\n)*/gm,
      (_, indent) => (replaced++, upstreams.map((u) => `${indent}server ${u};\n`).join('')),
    )
    .replace(/^(\s*)listen\s+80;/m, `$1listen 127.0.0.1:${port};`);
  if (replaced === 0 || !site.includes(`listen 127.0.0.1:${port};`))
    throw new Error('the docs/scaling.md nginx recipe has no upstream servers or no "listen 80;" to point at the test instances');
  return `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
${site}
}
`;
}

function accepting(port) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Starts nginx in front of `upstreams` (`host:port` each); resolves once it accepts connections.
 * @param {string[]} upstreams
 */
export async function startNginx(upstreams) {
  const binary = programPath('nginx');
  const dir = mkdtempSync(join(tmpdir(), 'decorum-nginx-'));
  const port = await freePort();
  writeFileSync(join(dir, 'nginx.conf'), config(dir, port, upstreams));
  const child = spawn(binary, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c) => (stderr += c));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const spawned = await new Promise((resolve) => {
    child.once('spawn', () => resolve(undefined));
    child.once('error', (error) => resolve(error));
  });
  try {
    if (spawned) throw spawned;
    const deadline = Date.now() + 10_000;
    while (!(await accepting(port))) {
      if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${stderr} ${safeRead(join(dir, 'error.log'))}`);
      if (Date.now() > deadline) throw new Error(`nginx did not listen within 10 s: ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    port,
    url: `http://127.0.0.1:${port}/mcp`,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function safeRead(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
