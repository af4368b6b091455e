#!/usr/bin/env node
/**
 * Cold start, idle memory and import costs of the stdio runners (issue #17). Needs a build and the
 * bench servers compiled (`npm run bench` does both; so does `BENCH_ONLY=cold npm run bench`).
 *
 *   node bench/cold-start.mjs [--json]      COLD_RUNS=10 IMPORT_RUNS=5
 *
 * 1. Cold start, paired: each target is spawned COLD_RUNS times, alternating target by target
 *    (Decorum, SDK, Decorum, SDK, …) so that both see the same machine. One run is spawn → the
 *    first answer line to a `tools/list` written at once → stdin closed → process exit.
 * 2. Idle RSS: each target once more, its `VmRSS` read 500 ms after its first answer (a server
 *    that has started and served, waiting for more); the HTTP targets (L0, Decorum's HTTP bench
 *    server) after they print READY.
 * 3. Import costs: one child process per module, `performance.now()` around `await import()`,
 *    median of IMPORT_RUNS; a module's time includes what it imports itself.
 *
 * Prints a table, or with --json one line of JSON (what run.mjs reads).
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = join(BENCH, '..');
const SERVERS = join(BENCH, '.build', 'servers');
const COLD_RUNS = Number(process.env.COLD_RUNS ?? 10);
const IMPORT_RUNS = Number(process.env.IMPORT_RUNS ?? 5);
const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const LIST = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } })}\n`;
const BIN = join(ROOT, 'packages/cli/dist/bin.js');

/** The stdio targets: what a host spawns. */
export const COLD_TARGETS = [
  {
    id: 'decorum-weather',
    label: 'Decorum: mcp-serve examples/weather/dist/weather.js (built .js)',
    args: [BIN, join(ROOT, 'examples/weather/dist/weather.js')],
  },
  { id: 'sdk', label: 'SDK v2: serveStdio (bench tools)', args: [join(SERVERS, 'sdk-stdio.js')] },
  {
    id: 'decorum-bench',
    label: 'Decorum: mcp-serve bench/servers/decorum-stdio (the same bench tools, built .js)',
    args: [BIN, join(SERVERS, 'decorum-stdio.js')],
  },
  {
    id: 'decorum-weather-ts',
    label: 'Decorum: mcp-serve examples/weather/src/weather.ts (.ts through the swc loader)',
    args: [BIN, join(ROOT, 'examples/weather/src/weather.ts')],
  },
];

/** What each import costs, alone in a fresh process. */
const MODULES = [
  'reflect-metadata',
  'commander',
  'typebox',
  'typebox/compile',
  'class-validator',
  'class-transformer',
  '@decorum/core',
  '@decorum/stdio',
  '@decorum/fastify',
  'fastify',
  'jose',
  '@swc/core',
  '@modelcontextprotocol/server',
  'zod',
];

const median = (v) => {
  const s = v.filter(Number.isFinite).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const stats = (v) => ({ median: median(v), min: Math.min(...v), max: Math.max(...v), runs: v });

function rssKiB(pid) {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  } catch {
    return NaN;
  }
}

/** One spawn → first answer → exit; with `idleMs`, also the RSS that long after the answer. */
function coldRun(target, idleMs) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, target.args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let firstAnswer;
    let rss;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${target.id}: no answer and exit within 30 s\n${err.slice(-1000)}`));
    }, 30_000);
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => {
      out += d;
      if (firstAnswer !== undefined || !out.includes('\n')) return;
      firstAnswer = performance.now() - t0;
      const answer = JSON.parse(out.slice(0, out.indexOf('\n')));
      if (!Array.isArray(answer.result?.tools)) {
        child.kill('SIGKILL');
        return reject(new Error(`${target.id}: unexpected answer ${out.slice(0, 300)}`));
      }
      const end = () => child.stdin.end();
      if (idleMs === undefined) return end();
      setTimeout(() => {
        rss = rssKiB(child.pid);
        end();
      }, idleMs);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (firstAnswer === undefined) return reject(new Error(`${target.id}: exited (${code ?? signal}) before answering\n${err.slice(-1000)}`));
      resolve({ firstAnswer, exit: performance.now() - t0, rss });
    });
    child.stdin.write(LIST);
  });
}

/** RSS of an HTTP bench server once it is ready to serve. */
function httpIdleRss(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (!/READY \d+/.test(out)) return;
      setTimeout(() => {
        const rss = rssKiB(child.pid);
        child.kill('SIGTERM');
        resolve(rss);
      }, 500);
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}) before READY`)));
  });
}

function importCost(module) {
  const times = [];
  const code = `const t = performance.now(); await import(${JSON.stringify(module)}); process.stdout.write(String(performance.now() - t));`;
  for (let i = 0; i < IMPORT_RUNS; i++) {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, encoding: 'utf8' });
    if (r.status !== 0) return { error: r.stderr.trim().split('\n').slice(-3).join(' ') };
    times.push(Number(r.stdout));
  }
  return stats(times);
}

async function main() {
  const result = { coldRuns: COLD_RUNS, cold: {}, idleRss: {}, imports: {}, errors: {} };
  const runs = Object.fromEntries(COLD_TARGETS.map((t) => [t.id, []]));
  // Warm the file system cache once per target; not counted.
  for (const t of COLD_TARGETS) await coldRun(t).catch((e) => (result.errors[t.id] = e.message));
  const live = COLD_TARGETS.filter((t) => !result.errors[t.id]);
  for (let i = 0; i < COLD_RUNS; i++) for (const t of live) runs[t.id].push(await coldRun(t));
  for (const t of live) {
    result.cold[t.id] = { label: t.label, firstAnswer: stats(runs[t.id].map((r) => r.firstAnswer)), exit: stats(runs[t.id].map((r) => r.exit)) };
    result.idleRss[t.id] = { label: t.label, kib: (await coldRun(t, 500)).rss };
  }
  const bodies = join(BENCH, '.build', 'tmp', 'cold-l0-bodies.json');
  writeFileSync(bodies, JSON.stringify({ '/mcp': '{"jsonrpc":"2.0","id":1,"result":{}}' }));
  for (const [id, label, args] of [
    ['http-l0', 'L0: plain Fastify route (l0-http)', [join(SERVERS, 'l0-http.js'), bodies]],
    ['http-decorum', 'Decorum: Fastify + mcpPlugin (decorum-http, four endpoints)', [join(SERVERS, 'decorum-http.js')]],
  ]) {
    try {
      result.idleRss[id] = { label, kib: await httpIdleRss(args) };
    } catch (error) {
      result.errors[id] = error.message;
    }
  }
  for (const m of MODULES) result.imports[m] = importCost(m);
  return result;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await main();
  if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(result)}\n`);
  else {
    for (const [id, c] of Object.entries(result.cold))
      console.log(
        `${id.padEnd(20)} first answer ${c.firstAnswer.median.toFixed(0)} ms (${c.firstAnswer.min.toFixed(0)}–${c.firstAnswer.max.toFixed(0)}), exit ${c.exit.median.toFixed(0)} ms (${c.exit.min.toFixed(0)}–${c.exit.max.toFixed(0)})`,
      );
    for (const [id, r] of Object.entries(result.idleRss)) console.log(`${id.padEnd(20)} idle RSS ${(r.kib / 1024).toFixed(1)} MiB`);
    for (const [m, s] of Object.entries(result.imports))
      console.log(`${m.padEnd(30)} ${s.error ?? `${s.median.toFixed(0)} ms (${s.min.toFixed(0)}–${s.max.toFixed(0)})`}`);
    for (const [id, e] of Object.entries(result.errors)) console.log(`${id}: ${e}`);
  }
}
