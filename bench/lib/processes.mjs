/**
 * The processes a run starts: servers pinned to their core, and what /proc says about them (CPU
 * time, peak RSS).
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { ROOT } from './config.mjs';

// Pinning: with two cores or more and taskset (util-linux), every server runs on core 0 and this
// process (the load generator: autocannon, the stdio client) on core 1, so that they do not take
// each other's core turn by turn and the ratios of one run are steadier.
const CORES = os.cpus().length;
export const PIN = process.env.BENCH_PIN !== '0' && CORES >= 2 && spawnSync('taskset', ['--version']).status === 0;
export const SERVER_CORE = '0';
export const CLIENT_CORE = '1';
/** For the children that are not throughput servers (memory, cold start): the whole machine, as a host gives them. */
export const ALL_CORES = `0-${CORES - 1}`;

/** Moves this process (the load generator) to its own core when the servers are pinned. */
export function pinLoadGenerator() {
  if (PIN) spawnSync('taskset', ['-a', '-p', '-c', CLIENT_CORE, String(process.pid)], { stdio: 'ignore' });
}

/** Clock ticks per second, the unit of utime and stime in /proc/<pid>/stat. */
export const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** A started server process; `peakRssKiB()` and `cpuSeconds()` read /proc while it runs. */
export class ServerProcess {
  constructor(name, args, options = {}) {
    this.name = name;
    this.stderr = '';
    // taskset execs node in place, so the child's pid is the server's (for /proc/<pid>).
    const [command, argv] = PIN ? ['taskset', ['-c', options.cores ?? SERVER_CORE, process.execPath, ...args]] : [process.execPath, args];
    this.child = spawn(command, argv, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...options.env } });
    this.child.stderr.on('data', (d) => {
      if (this.stderr.length < 20_000) this.stderr += d;
    });
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => resolve({ code, signal }));
      this.child.once('error', (error) => {
        this.stderr += `\n${error.message}`;
        resolve({ code: error.code ?? 'error', signal: null });
      });
    });
    this.lastHwm = undefined;
  }

  /** For HTTP servers: resolves with the port printed as `READY <port>`. */
  ready(timeoutMs = 30_000) {
    return new Promise((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`${this.name} did not start within ${timeoutMs} ms\n${this.stderr}`)), timeoutMs);
      this.child.stdout.on('data', (d) => {
        out += d;
        const m = /READY (\d+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      });
      this.exited.then(({ code, signal }) => {
        clearTimeout(timer);
        reject(new Error(`${this.name} exited (${code ?? signal}) before it was ready\n${this.stderr.trim().slice(-3000)}`));
      });
    });
  }

  peakRssKiB() {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${this.child.pid}/status`, 'utf8'));
      if (m) this.lastHwm = Number(m[1]);
    } catch {
      /* exited */
    }
    return this.lastHwm;
  }

  /** CPU time the process has used so far (user + system, all its threads), in seconds. */
  cpuSeconds() {
    // Fields 14 and 15 of /proc/<pid>/stat; counted after the command name, which may hold spaces.
    const stat = readFileSync(`/proc/${this.child.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  }

  async stop() {
    this.peakRssKiB();
    if (this.child.pid !== undefined && this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 3000);
      await this.exited;
      clearTimeout(timer);
    }
  }
}
