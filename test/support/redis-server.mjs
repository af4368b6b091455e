// A throw-away redis-server for tests and the bench: a free port on 127.0.0.1, no persistence
// (--save '' --appendonly no), its files in a temp dir; kill() and start() again on the same port
// simulate an outage. Fails (never skips) when redis-server is not installed: `npm test` installs it
// (scripts/provision.mjs) and passes its absolute path, which is found the same way here.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.mjs';
import { programPath } from '../../scripts/provision.mjs';

function launch(port, dir) {
  return new Promise((resolve, reject) => {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no', '--loglevel', 'notice'];
    const child = spawn(programPath('redis-server'), args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const timer = setTimeout(() => fail(new Error(`redis-server did not start within 10 s: ${output}`)), 10_000);
    const fail = (error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    child.on('error', fail);
    const onEarlyExit = (code) => fail(new Error(`redis-server exited with ${code}: ${output}`));
    child.on('exit', onEarlyExit);
    const onData = (chunk) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        child.off('exit', onEarlyExit);
        resolve(child);
      }
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', onData);
  });
}

function stopChild(child, signal) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

/** Starts redis-server; resolves once it accepts connections. */
export async function startRedis() {
  const dir = mkdtempSync(join(tmpdir(), 'decorum-redis-'));
  const port = await freePort();
  let child;
  try {
    child = await launch(port, dir);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    /** Kills it at once (SIGKILL: an outage, not a shutdown). */
    kill: () => stopChild(child, 'SIGKILL'),
    /** Starts it again on the same port, empty. */
    start: async () => {
      child = await launch(port, dir);
    },
    /** Stops it and removes its temp dir. */
    stop: async () => {
      await stopChild(child, 'SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
