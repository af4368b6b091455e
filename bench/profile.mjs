#!/usr/bin/env node
/**
 * `npm run bench:profile [workload] [seconds]`: runs the Decorum HTTP bench server under
 * `node --cpu-prof`, drives one workload at 64 connections with autocannon, and prints the
 * frames with the most self time. Workloads: call-typebox (default), call-dto, list-1, list-50, list-500, echo-64k, call-legacy.
 * The .cpuprofile is kept in bench/.build/profiles/ (open it in Chrome DevTools).
 * PROFILE_SERVER=decorum-pipeline-http profiles the server with three middlewares and tracing on
 * (the tools/call workloads only) instead of plain Decorum.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildLikeTheBench } from './commit-build.mjs';
import { openLegacySession } from './legacy-session.mjs';

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = join(BENCH, '..');
const require = createRequire(join(ROOT, 'package.json'));
const autocannon = require('autocannon');
const workloadId = process.argv[2] ?? 'call-typebox';
const seconds = Number(process.argv[3] ?? 5);

buildLikeTheBench(ROOT);

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const call = (name, args) => ({ path: '/mcp', name, body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, _meta: META } } });
const workloads = {
  'call-typebox': call('add_typebox', { a: 20, b: 22 }),
  'call-dto': call('add_dto', { a: 20, b: 22 }),
  'echo-64k': call('echo', { text: 'x'.repeat(65536) }),
  // The same TypeBox call inside a legacy (2025-11-25) session on the server's /legacy endpoint.
  'call-legacy': {
    path: '/legacy',
    legacy: true,
    body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add_typebox', arguments: { a: 20, b: 22 } } },
  },
  ...Object.fromEntries(
    [1, 50, 500].map((n) => [`list-${n}`, { path: `/list-${n}`, body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } } }]),
  ),
};
const w = workloads[workloadId];
if (!w) throw new Error(`unknown workload ${workloadId}; one of ${Object.keys(workloads).join(', ')}`);

const dir = join(BENCH, '.build', 'profiles');
mkdirSync(dir, { recursive: true });
const before = new Set(readdirSync(dir));
const child = spawn(
  process.execPath,
  ['--cpu-prof', `--cpu-prof-dir=${dir}`, join(BENCH, '.build', 'servers', `${process.env.PROFILE_SERVER ?? 'decorum-http'}.js`)],
  {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const port = await new Promise((resolve, reject) => {
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
    const m = /READY (\d+)/.exec(out);
    if (m) resolve(Number(m[1]));
  });
  child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
});
const headers = w.legacy
  ? await sessionHeaders(`http://127.0.0.1:${port}${w.path}`)
  : {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': w.body.method,
      ...(w.name ? { 'mcp-name': w.name } : {}),
    };

async function sessionHeaders(url) {
  const headers = await openLegacySession(url, 'profile');
  if (!headers) throw new Error(`no legacy session from ${url}`);
  return headers;
}
const result = await autocannon({
  url: `http://127.0.0.1:${port}${w.path}`,
  method: 'POST',
  headers,
  body: JSON.stringify(w.body),
  connections: 64,
  duration: seconds,
});
process.stderr.write(`profile: ${workloadId} at 64 connections: ${Math.round(result['2xx'] / seconds)} req/s (${result.non2xx} non-2xx)\n`);
child.kill('SIGTERM');
await new Promise((resolve) => child.once('exit', resolve));

const file = readdirSync(dir)
  .filter((f) => f.endsWith('.cpuprofile') && !before.has(f))
  .map((f) => join(dir, f))
  .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
if (!file) throw new Error('no profile written');
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
let total = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  total += dt;
  const { functionName, url, lineNumber } = byId.get(id).callFrame;
  const where = url ? `${relative(ROOT, url.replace(/^file:\/\//, ''))}:${lineNumber + 1}` : '';
  const key = `${functionName || '(anonymous)'}  ${where}`;
  self.set(key, (self.get(key) ?? 0) + dt);
});
const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 25));
process.stdout.write(`Top self time (${relative(ROOT, file)}, ${(total / 1e6).toFixed(1)} s sampled):\n`);
for (const [key, t] of top) process.stdout.write(`${((100 * t) / total).toFixed(1).padStart(5)} %  ${key}\n`);

// The same self time grouped by where the code lives (a package, or a Decorum dist file).
const byModule = new Map();
profile.samples.forEach((id, i) => {
  const url = byId.get(id).callFrame.url.replace(/^file:\/\//, '');
  let where = '(native / runtime)';
  if (url.startsWith('node:')) where = 'node: built-ins';
  else if (url) {
    const rel = relative(ROOT, url);
    const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(rel);
    where = nm ? nm[1] : rel;
  }
  byModule.set(where, (byModule.get(where) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
process.stdout.write('\nSelf time by module:\n');
for (const [where, t] of [...byModule.entries()].sort((a, b) => b[1] - a[1]).slice(0, 20))
  process.stdout.write(`${((100 * t) / total).toFixed(1).padStart(5)} %  ${where}\n`);
