#!/usr/bin/env node
/**
 * `npm run bench`: Decorum against the limit (L0: plain Fastify / a bare stdio line loop) and the
 * official SDK v2, in one run, alternating targets within each round, medians of several rounds.
 * Each target's measurement in a round is two halves, in mirrored order (measureRound).
 * Writes bench/RESULTS.md. See bench/README.md for what each number means.
 *
 * Environment knobs (defaults in brackets): BENCH_DURATION seconds per measurement [1.5, in two halves],
 * BENCH_ROUNDS [12], BENCH_WARMUP seconds per target before a workload's rounds [2],
 * BENCH_CHANGE_ROUNDS rounds of the `change` step, a fresh pair of processes each [12],
 * BENCH_CHANGE_WARMUP the same for each fresh process of the `change` step [1],
 * BENCH_ONLY comma-separated workload ids or their part before a dash (e.g. `call-typebox,list`,
 * `stdio`, `listen`, `fanout`), BENCH_LISTEN_STREAMS idle subscriptions/listen streams [10000],
 * BENCH_FANOUT_LISTENERS listeners of the fan-out over two instances on Redis [1000],
 * BENCH_LEGACY_SESSIONS idle legacy HTTP sessions [10000], BENCH_CHANGE the changes whose cost is
 * measured, comma-separated `<before>..<after>` git revisions, a side possibly `<rev>+<patch file>`
 * [HEAD without the hardening's per-request steps against HEAD, and the same code against itself],
 * BENCH_SKIP comma-separated ids left out (as BENCH_ONLY names them; e.g. `instructions`, the step
 * that counts the hardening's cost under valgrind, ~45 min), BENCH_OUT the results file
 * [bench/RESULTS.md], BENCH_SKIP_BUILD=1 to skip `tsc -b`, BENCH_PIN=0 not to pin the servers and the
 * load generator to different cores (see pinning below).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { compileServers, loadSwc, prepareCommit } from './commit-build.mjs';
import { LEGACY_HEADERS, openLegacySession } from './legacy-session.mjs';

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = join(BENCH, '..');
const BUILD = join(BENCH, '.build');
const require = createRequire(join(ROOT, 'package.json'));

// Rounds of 1.5 s rather than fewer of 2: a ratio pairs two measurements taken one after the
// other, and the machine's neighbours move req/s by up to 2× within a minute (docs/perf-notes.md), so
// shorter, closer pairs and more of them make the median of the per-round ratios steadier. Twelve,
// not eight: at one connection a round's CPU ratio spreads over ±15 % (1.02–1.33× in the run of
// e496e5a), and the median of eight moved by as much as the distance to #17's bound from run to run.
const DURATION = Number(process.env.BENCH_DURATION ?? 1.5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 12);
/** Rounds of the `change` step, each with a fresh pair of processes (see measureChange). */
const CHANGE_ROUNDS = Number(process.env.BENCH_CHANGE_ROUNDS ?? 12);
// 2 s: after 1 s of load, Decorum's first measured round still read ~0.8 of its later ones (L0's
// ~0.9), with 4 s ~0.93 (both); 0.5 s left the first round to the JIT (2026-12-06, by hand).
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
/** Warm-up of each fresh process the `change` step starts, per workload and load (see measureChange). */
const CHANGE_WARMUP = Number(process.env.BENCH_CHANGE_WARMUP ?? 1);
/** A comma-separated environment variable as a list of its non-empty items. */
const envList = (name) =>
  (process.env[name] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const ONLY = envList('BENCH_ONLY');
const SKIP = envList('BENCH_SKIP');
const OUT = process.env.BENCH_OUT ?? join(BENCH, 'RESULTS.md');
const LISTEN_STREAMS = Number(process.env.BENCH_LISTEN_STREAMS ?? 10_000);
/** The stream count issue #8's memory target is about. */
const LISTEN_TARGET_STREAMS = 10_000;
/** The longest a measuring child (listen, sessions, fan-out, cold start) may take. */
const CHILD_TIMEOUT_MS = 5 * 60_000;
/** The longest bench/instructions.mjs may take (~45 min with its defaults). */
const INSTRUCTIONS_TIMEOUT_MS = 120 * 60_000;
const LEGACY_SESSIONS = Number(process.env.BENCH_LEGACY_SESSIONS ?? 10_000);
/**
 * The changes whose cost the run measures, each as `<before>..<after>` (git revisions; a side may
 * be `<rev>+<patch file>`, see commit-build.mjs). By default, the hardening (issue #13) as it is
 * now: the code against the same code with the hardening's per-request steps taken out. Its merge
 * against its first parent (the hardening as it landed) is measured when BENCH_CHANGE names it.
 */
const HARDENING_CHANGE = '186e539^1..186e539';
const HARDENING_TODAY = 'HEAD+bench/patches/without-hardening.patch..HEAD';
/** Issue #13's bound: with the hardening, at least 98 % of the throughput without it. */
const HARDENING_BOUND = 0.98;
/**
 * The change step checked against itself: the same code built in two trees, laid out as the
 * hardening's two are. It should read 1.00; what it reads is the instrument's own bias in the run.
 */
const SAME_CODE = 'HEAD+bench/patches/same-code.patch..HEAD';
const CHANGES = (process.env.BENCH_CHANGE ?? `${HARDENING_TODAY},${SAME_CODE}`).split(',').filter(Boolean);
/** What each known range of the `change` step is, in its section's first line. */
const CHANGE_TITLES = {
  [HARDENING_TODAY]: 'The hardening as it is now: ',
  [SAME_CODE]: 'The same code twice (an A/A check of this step): ',
  [HARDENING_CHANGE]: 'The hardening as it landed: ',
};
const FANOUT_LISTENERS = Number(process.env.BENCH_FANOUT_LISTENERS ?? 1000);
const PROTOCOL = '2026-07-28';
const CONNECTIONS = [1, 64];
const IN_FLIGHT = [1, 64];

const log = (...args) => process.stderr.write(`${args.join(' ')}\n`);
// `list` selects list-1, list-50 and list-500 but not `listen`.
const names = (list, id) => list.some((o) => id === o || id.startsWith(`${o}-`));
const selected = (id) => (ONLY.length === 0 || names(ONLY, id)) && !names(SKIP, id);
/** Why step `id` has no numbers in RESULTS.md: it failed (listed under "Not measured"), or BENCH_ONLY / BENCH_SKIP left it out. */
const whyNotMeasured = (id, failed) => (failed ? 'not measured: see "Not measured"' : `not measured in this run (BENCH_ONLY or BENCH_SKIP left out \`${id}\`)`);
/** The same as a sentence of its own, for a section. */
const notMeasuredSentence = (id, failed) => `N${whyNotMeasured(id, failed).slice(1)}.`;
/**
 * The calibration target (l0busy): L0 that first keeps the CPU busy for CALIBRATION_US per request.
 * It shows what a few µs of a server's own work cost against L0 on this machine.
 */
const CALIBRATION_US = 5;
/**
 * The Node setting README.md's "Tuning Node for an HTTP server" recommends: V8's young generation
 * at 16 MiB from the start instead of growing from 1 MiB. The `young` targets are Decorum and L0
 * started with it, beside the plain ones, so that each run measures what it is worth to both.
 */
const YOUNG_GENERATION_FLAG = '--min-semi-space-size=16';
/** The workloads the `young` targets run: a call and a list. */
const YOUNG_WORKLOADS = ['call-typebox', 'list-50'];
/**
 * The flags every throughput server starts with (HTTP and stdio; L0, the SDK and Decorum alike):
 * V8's memory reducer off. About 100 s after a process's last full collection, in an idle moment
 * (the bench makes one after every measurement), the reducer forces a full collection that finds
 * no request alive; the hidden classes of the request path die with the requests, and the code
 * optimized for them is thrown away. Only processes that had a full collection are struck: Decorum,
 * whose modules grow the heap past V8's first limit at start-up, and not L0, whose heap stays
 * below it. For ~10 s after, a tools/call cost Decorum 86–93 µs of CPU instead of 44–48 (by hand,
 * 2026-12-06, docs/perf-notes.md): a spell that lands in some rounds and not others, and measures the
 * bench's idle gaps rather than a request's cost. The `reducer` target keeps it in view: Decorum
 * started without the flag.
 */
const STEADY_STATE_FLAGS = ['--no-memory-reducer'];
const REDUCER_LABEL = "Decorum (mcpPlugin), V8's memory reducer on (node's default)";
/**
 * The targets measured on some workloads only, and which: the pipeline variant
 * (decorum-pipeline-http.ts) on the modern tools/call workloads, the calibration target on one,
 * Decorum and L0 with YOUNG_GENERATION_FLAG on a call and a list, Decorum with V8's memory reducer
 * on (without STEADY_STATE_FLAGS) on one call.
 * A workload such a target does not serve is not run on it and gets no row.
 */
const PARTIAL_TARGETS = {
  pipeline: (w) => w.id.startsWith('call-') && !w.legacy,
  l0busy: (w) => w.id === 'call-typebox',
  l0young: (w) => YOUNG_WORKLOADS.includes(w.id),
  young: (w) => YOUNG_WORKLOADS.includes(w.id),
  reducer: (w) => w.id === 'call-typebox',
};
/** Whether target `t` is run on workload `w` (its `serves`, when it has one). */
const serves = (t, w) => t.serves?.(w) ?? true;

// ---------------------------------------------------------------------------------------------
// 1. Build Decorum (incremental) and compile the bench servers with swc (decorator metadata kept)

function buildDecorum() {
  if (process.env.BENCH_SKIP_BUILD === '1') return { ok: true, note: 'build skipped (BENCH_SKIP_BUILD=1)' };
  log('bench: building Decorum (tsc -b tsconfig.build.json)…');
  const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-b', 'tsconfig.build.json'], { cwd: ROOT, encoding: 'utf8' });
  if (tsc.status === 0) return { ok: true, note: 'built' };
  const output = `${tsc.stdout}${tsc.stderr}`.trim().split('\n').slice(0, 15).join('\n');
  log(`bench: WARNING: the Decorum build failed; targets whose packages have no dist/ are reported as unavailable\n${output}`);
  const first = output.split('\n').find((l) => /error TS\d+/.test(l)) ?? output.split('\n')[0];
  return { ok: false, note: `tsc -b failed (${first.trim()}); measured the packages' existing dist/ as it stood` };
}

// ---------------------------------------------------------------------------------------------
// 2. Processes

// Pinning: with two cores or more and taskset (util-linux), every server runs on core 0 and this
// process (the load generator: autocannon, the stdio client) on core 1, so that they do not take
// each other's core turn by turn and the ratios of one run are steadier.
const CORES = os.cpus().length;
const PIN = process.env.BENCH_PIN !== '0' && CORES >= 2 && spawnSync('taskset', ['--version']).status === 0;
const SERVER_CORE = '0';
const CLIENT_CORE = '1';
/** For the children that are not throughput servers (memory, cold start): the whole machine, as a host gives them. */
const ALL_CORES = `0-${CORES - 1}`;
if (PIN) spawnSync('taskset', ['-a', '-p', '-c', CLIENT_CORE, String(process.pid)], { stdio: 'ignore' });

/** Clock ticks per second, the unit of utime and stime in /proc/<pid>/stat. */
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** A started server process; `peakRssKiB()` and `cpuSeconds()` read /proc while it runs. */
class ServerProcess {
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

// ---------------------------------------------------------------------------------------------
// 3. Requests

const META = { 'io.modelcontextprotocol/protocolVersion': PROTOCOL, 'io.modelcontextprotocol/clientCapabilities': {} };
const ECHO_TEXT = 'x'.repeat(64 * 1024);

function callRequest(id, name, args) {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: META } };
}
/** A tools/call of add_typebox as one stdio line, with its id spliced in (built once: the client must not be the bottleneck). */
const stdioCallLine = (() => {
  const prefix = '{"jsonrpc":"2.0","id":';
  const suffix = `,"method":"tools/call","params":${JSON.stringify({ name: 'add_typebox', arguments: { a: 20, b: 22 }, _meta: META })}}\n`;
  return (id) => prefix + id + suffix;
})();
function listRequest(id) {
  return { jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: META } };
}
function legacyCallRequest(id, name, args) {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } };
}
function httpHeaders(method, name) {
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': PROTOCOL,
    'mcp-method': method,
  };
  if (name !== undefined) headers['mcp-name'] = name;
  return headers;
}

/** The HTTP workloads: path (the same on every target), request body, headers. */
const HTTP_WORKLOADS = [
  { id: 'call-dto', title: 'tools/call, DTO-validated tool (add_dto)', path: '/mcp', tool: 'add_dto', body: callRequest(1, 'add_dto', { a: 20, b: 22 }) },
  {
    id: 'call-typebox',
    title: 'tools/call, TypeBox-validated tool (add_typebox)',
    path: '/mcp',
    tool: 'add_typebox',
    body: callRequest(1, 'add_typebox', { a: 20, b: 22 }),
  },
  { id: 'list-1', title: 'tools/list, 1 tool', path: '/list-1', tools: 1, body: listRequest(1) },
  { id: 'list-50', title: 'tools/list, 50 tools', path: '/list-50', tools: 50, body: listRequest(1) },
  { id: 'list-500', title: 'tools/list, 500 tools', path: '/list-500', tools: 500, body: listRequest(1) },
  { id: 'echo-64k', title: 'tools/call echoing a 64 KiB argument', path: '/mcp', tool: 'echo', body: callRequest(1, 'echo', { text: ECHO_TEXT }) },
  // A legacy (2025-11-25) client's call inside its session: no _meta, Mcp-Session-Id instead (minted per target).
  {
    id: 'call-legacy',
    title: 'tools/call in a legacy 2025-11-25 session (add_typebox)',
    path: '/legacy',
    tool: 'add_typebox',
    legacy: true,
    body: legacyCallRequest(1, 'add_typebox', { a: 20, b: 22 }),
  },
].map((w) => ({ ...w, payload: JSON.stringify(w.body), headers: w.legacy ? LEGACY_HEADERS : httpHeaders(w.body.method, w.tool), headersByPort: {} }));

/** The headers a workload sends to one target (a legacy workload's carry that target's session id). */
function headersOf(workload, port) {
  return workload.headersByPort[port] ?? workload.headers;
}

/**
 * Opens a legacy session on a target for a legacy workload (legacy-session.mjs). A target that
 * mints no session (the stateless SDK server, L0) keeps the plain headers; its check then decides
 * whether it is measured.
 */
async function openWorkloadSession(port, workload) {
  if (!workload.legacy) return;
  try {
    const headers = await openLegacySession(`http://127.0.0.1:${port}${workload.path}`);
    if (headers) workload.headersByPort[port] = headers;
  } catch {
    // Unreachable target: its check reports it.
  }
}

/** The JSON-RPC message of an HTTP answer, whether sent as JSON or as an SSE stream. */
function readAnswer(contentType, text) {
  if ((contentType ?? '').includes('text/event-stream')) {
    const messages = text
      .split(/\r?\n\r?\n/)
      .map((event) =>
        event
          .split(/\r?\n/)
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5).trim())
          .join('\n'),
      )
      .filter(Boolean)
      .map((d) => JSON.parse(d));
    return messages.find((m) => m.id !== undefined) ?? messages.at(-1);
  }
  return JSON.parse(text);
}

/** Checks that a result is the right one for the workload; returns an error string or undefined. */
function checkResult(workload, message) {
  if (!message || typeof message !== 'object') return 'no JSON-RPC message';
  if (message.error) return `JSON-RPC error ${message.error.code}: ${message.error.message}`;
  const result = message.result;
  if (!result) return 'no result';
  if (workload.body.method === 'tools/list') {
    const n = result.tools?.length;
    if (n !== workload.tools) return `tools/list returned ${n} tools, expected ${workload.tools}${result.nextCursor ? ' (paginated)' : ''}`;
    return undefined;
  }
  if (result.isError) return `tool error: ${JSON.stringify(result.content).slice(0, 200)}`;
  const text = result.content?.[0]?.text;
  const expected = workload.tool === 'echo' ? ECHO_TEXT : '42';
  if (text !== expected) return `unexpected tool answer ${JSON.stringify(String(text).slice(0, 80))}`;
  return undefined;
}

async function verifyHttp(port, workload) {
  try {
    await openWorkloadSession(port, workload);
    const response = await fetch(`http://127.0.0.1:${port}${workload.path}`, { method: 'POST', headers: headersOf(workload, port), body: workload.payload });
    const text = await response.text();
    if (response.status !== 200) return { error: `HTTP ${response.status}: ${text.slice(0, 300)}` };
    const message = readAnswer(response.headers.get('content-type'), text);
    const error = checkResult(workload, message);
    return error ? { error } : { text, contentType: response.headers.get('content-type') };
  } catch (error) {
    return { error: String(error?.message ?? error) };
  }
}

// ---------------------------------------------------------------------------------------------
// 4. Measurements

const autocannon = require('autocannon');

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** One autocannon run; latencies are collected at full (sub-millisecond) resolution, unsorted (mergeRuns takes the percentiles). */
function runAutocannon(port, workload, connections, seconds) {
  return new Promise((resolve, reject) => {
    const latencies = [];
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${port}${workload.path}`,
        method: 'POST',
        headers: headersOf(workload, port),
        body: workload.payload,
        connections,
        pipelining: 1,
        duration: seconds,
      },
      (error, result) => {
        if (error) return reject(error);
        const secs = (result.finish - result.start) / 1000;
        resolve({
          rps: result['2xx'] / secs,
          bytesPerSec: result.throughput.total / secs,
          latencies,
          errors: result.errors + result.timeouts + result.non2xx,
          total: result.requests.total,
          answered: result['2xx'],
          seconds: secs,
        });
      },
    );
    instance.on('response', (_client, status, _bytes, responseTime) => {
      if (status >= 200 && status < 300) latencies.push(responseTime);
    });
  });
}

/** Round-trips over a child's stdin/stdout with `inFlight` requests outstanding. */
function runStdio(proc, makeLine, inFlight, seconds) {
  return new Promise((resolve, reject) => {
    const { stdin, stdout } = proc.child;
    let id = 1_000_000 * Math.floor(1 + Math.random() * 1000);
    let sent = 0;
    let received = 0;
    let stopped = false;
    let rate = NaN;
    let drainTimer;
    const latencies = [];
    const sentAt = inFlight === 1 ? [] : undefined;
    const start = performance.now();
    const send = (n) => {
      let chunk = '';
      for (let i = 0; i < n; i++) chunk += makeLine(++id);
      sent += n;
      if (sentAt) sentAt.push(performance.now());
      stdin.write(chunk);
    };
    const finish = () => {
      stdout.off('data', onData);
      proc.child.off('exit', onExit);
      clearTimeout(drainTimer);
      // `answered` and `seconds` include the drain, as the server's CPU time measured around the run does.
      resolve({
        rps: rate,
        latencies,
        errors: 0,
        answered: received,
        seconds: (performance.now() - start) / 1000,
      });
    };
    const onData = (data) => {
      let n = 0;
      for (let i = data.indexOf(10); i !== -1; i = data.indexOf(10, i + 1)) n++;
      if (n === 0) return;
      received += n;
      if (sentAt) for (let i = 0; i < n; i++) latencies.push(performance.now() - sentAt.shift());
      if (!stopped) send(n);
      else if (received >= sent) finish();
    };
    const onExit = () => reject(new Error(`${proc.name} exited during the run\n${proc.stderr.slice(-2000)}`));
    stdout.on('data', onData);
    proc.child.once('exit', onExit);
    send(inFlight);
    setTimeout(() => {
      stopped = true;
      rate = received / ((performance.now() - start) / 1000);
      if (received >= sent) return finish();
      // Let the outstanding requests drain so the next measurement starts clean.
      drainTimer = setTimeout(() => reject(new Error(`${proc.name}: ${sent - received} responses missing after the run`)), 10_000);
    }, seconds * 1000);
  });
}

const median = (values) => {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
};

/**
 * Runs one measurement of a server process and adds the server's own cost to its result: the CPU
 * seconds it used during the run (mergeRuns makes µs per answered request and the share of a core).
 * Unlike req/s, the CPU time per request hardly depends on how much of the machine the load
 * generator takes. Returns once the server is idle again (`untilIdle`), so that the next
 * measurement does not run in its wake.
 */
async function withServerCpu(proc, measurement) {
  const before = proc.cpuSeconds();
  const r = await measurement();
  const cpu = proc.cpuSeconds() - before;
  await untilIdle(proc);
  return { ...r, cpuSeconds: cpu };
}

/** Window and bound of `untilIdle`: idle is at most one clock tick of CPU in a window. */
const IDLE_WINDOW_MS = 100;
const IDLE_WAIT_LIMIT_MS = 10_000;

/**
 * Waits until a server that has just been measured is idle; logs a wait of more than three windows.
 * An overloaded server goes on answering queued requests and collecting garbage after its load
 * stops, on the core the next target runs on. In the run of d9314c0 the SDK had 64 requests of the
 * 500-tool list queued when its load stopped (~9 ms of CPU each), and Decorum, measured right after
 * it in the even rounds, read 0.29–0.64 of L0 in those, 0.97–0.99 in three of the four others.
 */
async function untilIdle(proc) {
  const started = performance.now();
  let last = proc.cpuSeconds();
  while (performance.now() - started < IDLE_WAIT_LIMIT_MS) {
    await new Promise((resolve) => setTimeout(resolve, IDLE_WINDOW_MS));
    const now = proc.cpuSeconds();
    if (now - last <= 1 / CLOCK_TICKS) {
      const waitedMs = performance.now() - started;
      if (waitedMs > 3 * IDLE_WINDOW_MS) log(`bench: ${proc.name} was busy ${Math.round(waitedMs)} ms after its load`);
      return;
    }
    last = now;
  }
  log(`bench: ${proc.name} still busy ${IDLE_WAIT_LIMIT_MS / 1000} s after its load; the next measurement starts anyway`);
}

function summarize(runs) {
  if (!runs || runs.length === 0) return undefined;
  const med = (metric) => median(runs.map((r) => r[metric]));
  return {
    rps: med('rps'),
    p50: med('p50'),
    p99: med('p99'),
    bytesPerSec: med('bytesPerSec'),
    cpuUsPerReq: med('cpuUsPerReq'),
    cpuShare: med('cpuShare'),
    errors: runs.reduce((n, r) => n + (r.errors ?? 0), 0),
    rounds: runs.length,
    runs,
  };
}

/**
 * The targets whose ratios the targets are judged by, measured back to back in the middle of each
 * round in this order: L0 (stdio: the JSON floor), Decorum, and the pipeline variant (#19 is
 * judged by it ÷ Decorum; in the run of 7e2290c it sat three runs away and read 0.92 / 0.94).
 */
const MIDDLE = ['l0', 'floor', 'decorum', 'pipeline'];

/**
 * One round's measurements of `targets` (`measure(t, seconds)`), each target in two halves of
 * DURATION / 2 that are merged into its run: the targets one after the other, then the same in
 * reverse (A B C | C B A), with the MIDDLE targets in the middle, back to back.
 *
 * Why halves: on a shared host the machine's speed drifts and jumps from one second to the next
 * (the run of c4678ff: L0's CPU per request 33–77 µs for the same work; Decorum and the two variants
 * measured after it slow together in a round where L0, three runs before, was not). Measured once
 * per round, one target of a pair could fall in a slow spell and the other not, and their ratio read
 * up to 2.9×. Mirrored halves put every target's measurement around the same moment, the round's
 * middle, so a steady drift weighs on all alike; the pairs judged sit closest, where a jump falls
 * between them least often. It also does what alternating the order each round did: no target
 * always runs in another's wake.
 */
async function measureRound(targets, measure, onRun) {
  const order = [...targets].sort((a, b) => middleRank(a) - middleRank(b));
  const parts = new Map(order.map((t) => [t, []]));
  for (const half of [[...order].reverse(), order]) {
    for (const t of half) parts.get(t).push(await withServerCpu(t.proc, () => measure(t, DURATION / 2)));
  }
  for (const t of targets) onRun(t, mergeRuns(parts.get(t)));
}

const middleRank = (t) => {
  const rank = MIDDLE.indexOf(t.id);
  return rank === -1 ? MIDDLE.length : rank;
};

/** One measurement from its halves: counts and CPU time added up, rates averaged (the halves are equally long), percentiles of all latencies, CPU per answered request and as a share of one core. */
function mergeRuns(parts) {
  const sum = (metric) => parts.reduce((n, r) => n + (r[metric] ?? 0), 0);
  const mean = (metric) => sum(metric) / parts.length;
  const latencies = parts.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const answered = sum('answered');
  const seconds = sum('seconds');
  const cpuSeconds = sum('cpuSeconds');
  return {
    rps: mean('rps'),
    bytesPerSec: parts.every((r) => r.bytesPerSec !== undefined) ? mean('bytesPerSec') : undefined,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors: sum('errors'),
    total: sum('total'),
    answered,
    seconds,
    cpuUsPerReq: answered > 0 ? (cpuSeconds * 1e6) / answered : NaN,
    cpuShare: cpuSeconds / seconds,
  };
}

/** Measurements by `<workload>@<load>` and target id, filled round by round; `summaries` makes the results. */
class Rounds {
  runs = {};

  add(key, id, run) {
    ((this.runs[key] ??= {})[id] ??= []).push(run);
  }

  summaries() {
    return Object.fromEntries(
      Object.entries(this.runs).map(([key, byTarget]) => [key, Object.fromEntries(Object.entries(byTarget).map(([id, rs]) => [id, summarize(rs)]))]),
    );
  }
}

/** Every workload at every connection count, as `{ w, connections, key }`. */
const httpCombos = (workloads) => CONNECTIONS.flatMap((connections) => workloads.map((w) => ({ w, connections, key: `${w.id}@${connections}` })));
const liveFor = (targets, w) => targets.filter((t) => !t.broken[w.id] && serves(t, w));

async function warmHttp(targets, combos, seconds) {
  log(`bench: HTTP warm-up (${targets.map((t) => t.id).join(', ')})`);
  for (const { w, connections } of combos) for (const t of liveFor(targets, w)) await runAutocannon(t.port, w, connections, seconds);
}

/** One HTTP round: every workload on every target, in mirrored halves (measureRound). */
async function httpRound(targets, combos, round, rounds, of = ROUNDS) {
  for (const { w, connections, key } of combos) {
    await measureRound(
      liveFor(targets, w),
      (t, seconds) => runAutocannon(t.port, w, connections, seconds),
      (t, r) => {
        rounds.add(key, t.id, r);
        log(`bench: round ${round}/${of} ${key} ${t.id}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)} ms${r.errors ? `, ${r.errors} errors` : ''}`);
      },
    );
  }
}

/**
 * HTTP rounds: each round measures every workload on every target (in mirrored halves,
 * measureRound), so the ratios compare measurements taken around the same moment, whatever else
 * the machine is doing. A target skips the workloads it failed its check on, or does not serve (`serves`).
 * Returns summaries by `<workload>@<connections>` and target id.
 */
async function httpRounds(targets, workloads) {
  const combos = httpCombos(workloads);
  const rounds = new Rounds();
  await warmHttp(targets, combos, WARMUP);
  for (let round = 1; round <= ROUNDS; round++) await httpRound(targets, combos, round, rounds);
  return rounds.summaries();
}

async function warmStdio(targets, seconds) {
  log(`bench: stdio warm-up (${targets.map((t) => t.id).join(', ')})`);
  for (const inFlight of IN_FLIGHT) for (const t of targets) await runStdio(t.proc, stdioCallLine, inFlight, seconds);
}

/** One stdio round: every in-flight count on every target, in mirrored halves (measureRound). */
async function stdioRound(targets, round, rounds, of = ROUNDS) {
  for (const inFlight of IN_FLIGHT) {
    const key = `stdio@${inFlight}`;
    await measureRound(
      targets,
      (t, seconds) => runStdio(t.proc, stdioCallLine, inFlight, seconds),
      (t, r) => {
        rounds.add(key, t.id, r);
        log(`bench: round ${round}/${of} ${key} ${t.id}: ${r.rps.toFixed(0)} round-trips/s`);
      },
    );
  }
}

/** stdio rounds, as httpRounds: every in-flight count on every target in turn, per round. Summaries by `stdio@<in flight>` and target id. */
async function stdioRounds(targets) {
  const rounds = new Rounds();
  await warmStdio(targets, WARMUP);
  for (let round = 1; round <= ROUNDS; round++) await stdioRound(targets, round, rounds);
  return rounds.summaries();
}

// ---------------------------------------------------------------------------------------------
// 5. Machine and versions

function machine() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    node: process.version,
    os: `${os.type()} ${os.release()} (${os.arch()})`,
    load: os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' '),
  };
}

function version(pkg) {
  try {
    return JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')).version;
  } catch {
    return 'not installed';
  }
}

// ---------------------------------------------------------------------------------------------
// 6. The run

/** Steps that need a program from outside npm, and how to install it. */
const SYSTEM_NEEDS = [
  { id: 'fanout', command: 'redis-server', install: 'apt-get install redis-server; npm test installs it when run as root' },
  { id: 'instructions', command: 'callgrind_control', install: 'apt-get install valgrind' },
];

async function main() {
  const startedAt = new Date();
  // Said at the start, not when the step fails an hour into the run.
  for (const { id, command, install } of SYSTEM_NEEDS) {
    if (selected(id) && spawnSync(command, ['--version'], { stdio: 'ignore' }).status !== 0) {
      log(`bench: ${command} is not installed, so the ${id} step will fail (${install})`);
    }
  }
  const build = buildDecorum();
  const swc = await loadSwc(ROOT);
  const sources = join(BENCH, 'servers');
  const servers = compileServers({ ...swc, sources, out: join(BUILD, 'servers') });
  const rel = (f) => relative(ROOT, join(servers, f));
  const tmp = join(BUILD, 'tmp');
  mkdirSync(tmp, { recursive: true });

  const processes = [];
  const started = async (name, args, options) => {
    const p = new ServerProcess(name, args, options);
    processes.push(p);
    return p;
  };

  const results = { http: {}, stdio: {}, rss: {}, listen: {}, fanout: undefined, sessions: undefined, change: undefined, unavailable: {} };
  const httpSelected = HTTP_WORKLOADS.filter((w) => selected(w.id));
  const stdioSelected = selected('stdio');

  /**
   * Starts an HTTP bench server with STEADY_STATE_FLAGS and `nodeFlags` (without the first when
   * `memoryReducer`); undefined (and recorded as unavailable) when it does not come up.
   */
  const startHttp = async (id, label, file, args = [], nodeFlags = [], { memoryReducer = false } = {}) => {
    const flags = memoryReducer ? nodeFlags : [...STEADY_STATE_FLAGS, ...nodeFlags];
    const p = await started(label, [...flags, file.startsWith('/') ? file : rel(file), ...args]);
    try {
      const port = await p.ready();
      return { id, label, port, proc: p, broken: {}, serves: PARTIAL_TARGETS[id] };
    } catch (error) {
      results.unavailable[id] = String(error.message).trim();
      log(`bench: ${label} unavailable: ${error.message.split('\n')[0]}`);
      await p.stop();
      return undefined;
    }
  };
  /** One stdio request, one well-formed answer line with the right result; resolves with the line. */
  const probe = async (p) => {
    const line = await new Promise((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`no answer within 15 s\n${p.stderr.slice(-2000)}`)), 15_000);
      const onData = (d) => {
        out += d;
        const nl = out.indexOf('\n');
        if (nl !== -1) {
          clearTimeout(timer);
          p.child.stdout.off('data', onData);
          resolve(out.slice(0, nl));
        }
      };
      p.child.stdout.on('data', onData);
      p.exited.then(({ code, signal }) => reject(new Error(`exited (${code ?? signal})\n${p.stderr.slice(-2000)}`)));
      p.child.stdin.write(stdioCallLine(1));
    });
    const error = checkResult({ body: { method: 'tools/call' }, tool: 'add_typebox' }, JSON.parse(line));
    if (error) throw new Error(`${error}: ${line.slice(0, 300)}`);
    return line;
  };
  /** Starts a stdio bench server and probes it; undefined (and recorded as unavailable) when it fails. */
  const startStdio = async (id, label, args, options) => {
    const p = await started(label, [...STEADY_STATE_FLAGS, ...args], options);
    try {
      return { id, label, proc: p, line: await probe(p) };
    } catch (error) {
      results.unavailable[`stdio:${id}`] = String(error.message).trim();
      log(`bench: stdio ${label} unavailable: ${error.message.split('\n')[0]}`);
      await p.stop();
      return undefined;
    }
  };
  /**
   * A change's cost (bench/commit-build.mjs): Decorum built at both sides of `range`, serving the
   * same tools, measured in alternation on tools/call over HTTP and stdio. `{ error }` when a side
   * could not be prepared.
   */
  const measureChange = async (range, sources, swc) => {
    const revs = range.split('..');
    let trees;
    try {
      trees = revs.map((rev) => prepareCommit({ root: ROOT, build: BUILD, rev, log }));
    } catch (error) {
      return { error: String(error.message) };
    }
    const subject = (commit) => spawnSync('git', ['log', '-1', '--format=%s', commit], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
    const sides = trees.map(({ dir, commit, patch }, i) => ({
      id: i === 0 ? 'before' : 'after',
      commit,
      patch,
      subject: subject(commit),
      dir,
      servers: compileServers({ ...swc, sources, out: join(dir, 'bench', '.build-current', 'servers') }),
    }));
    const change = { range, sides: sides.map(({ id, commit, patch, subject }) => ({ id, commit, patch, subject })), http: {}, stdio: {} };
    const calls = HTTP_WORKLOADS.filter((w) => w.id === 'call-typebox' || w.id === 'call-dto');
    const label = (side) => `${side.commit.slice(0, 10)}${side.patch ? ` + ${side.patch}` : ''} (${side.id})`;
    // Two processes of the same build differ by up to ~8 % for as long as they live (measured
    // 2026-12-05: pairs of one build read 0.92-1.00 of each other, each pair steady over 8 rounds),
    // more than the costs this step is for. So each round starts a fresh pair, warms it and
    // measures it once: the rounds sample that difference instead of keeping one draw of it.
    // Stops early, with what it has, when a side does not start.
    const eachRoundAfresh = async (startPair, measure) => {
      const rounds = new Rounds();
      for (let round = 1; round <= CHANGE_ROUNDS; round++) {
        const pair = await startPair();
        if (pair.length === 2) await measure(pair, round, rounds);
        for (const t of pair) await t.proc.stop();
        if (pair.length !== 2) break;
      }
      return rounds.summaries();
    };
    const combos = httpCombos(calls);
    // Checked in the first round; a workload a side fails is left out of every round, so the
    // rounds of both sides stay paired.
    let broken;
    const startHttpPair = async () => {
      const pair = (
        await Promise.all(sides.map((side) => startHttp(`change:${side.id}`, `Decorum at ${label(side)}`, join(side.servers, 'decorum-http.js'))))
      ).filter(Boolean);
      for (const t of pair) t.id = t.id.slice('change:'.length);
      return pair;
    };
    Object.assign(
      change.http,
      await eachRoundAfresh(startHttpPair, async (pair, round, rounds) => {
        if (!broken) {
          broken = {};
          for (const t of pair) {
            broken[t.id] = {};
            for (const w of calls) {
              const v = await verifyHttp(t.port, w);
              if (v.error) broken[t.id][w.id] = v.error;
            }
          }
        }
        for (const t of pair) Object.assign(t.broken, broken[t.id]);
        await warmHttp(pair, combos, CHANGE_WARMUP);
        await httpRound(pair, combos, round, rounds, CHANGE_ROUNDS);
      }),
    );
    const startStdioPair = async () => {
      const pair = [];
      for (const side of sides) {
        const t = await startStdio(`change:${side.id}`, `mcp-serve at ${label(side)}`, [
          join(side.dir, 'packages/cli/dist/bin.js'),
          join(side.servers, 'decorum-stdio.js'),
        ]);
        if (t) pair.push({ ...t, id: side.id });
      }
      return pair;
    };
    Object.assign(
      change.stdio,
      await eachRoundAfresh(startStdioPair, async (pair, round, rounds) => {
        await warmStdio(pair, CHANGE_WARMUP);
        await stdioRound(pair, round, rounds, CHANGE_ROUNDS);
      }),
    );
    return change;
  };
  /**
   * Runs a bench script that prints its result as one line of JSON (--json) in a child process of
   * its own (so it can raise its own limits, and gets every core, as a host would give it); the
   * parsed result, or undefined with the reason recorded under `unavailable[id]`.
   */
  const jsonChild = async (id, script, { env = {}, args = [], timeoutMs = CHILD_TIMEOUT_MS } = {}) => {
    const p = await started(`${script} ${args.join(' ')}`.trim(), [relative(ROOT, join(BENCH, script)), ...args, '--json'], { cores: ALL_CORES, env });
    let out = '';
    p.child.stdout.on('data', (d) => (out += d));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      void p.stop();
    }, timeoutMs);
    const { code, signal } = await p.exited;
    clearTimeout(timer);
    if (code === 0) return JSON.parse(out.trim().split('\n').at(-1));
    const why = timedOut ? `no result within ${timeoutMs / 60_000} min` : `exited (${code ?? signal})`;
    results.unavailable[id] = `${script} ${args.join(' ')}: ${why}\n${p.stderr.trim().slice(-3000)}`.trim();
    log(`bench: ${id} not measured: ${why}`);
    return undefined;
  };

  try {
    // ---- HTTP -----------------------------------------------------------------------------
    if (httpSelected.length > 0) {
      const decorum = await startHttp('decorum', 'Decorum (mcpPlugin)', 'decorum-http.js');
      // Decorum with three middlewares and tracing on (no SDK), beside plain Decorum: tools/call only.
      const pipeline = httpSelected.some(PARTIAL_TARGETS.pipeline)
        ? await startHttp('pipeline', 'Decorum + 3 middlewares + tracing (no SDK)', 'decorum-pipeline-http.js')
        : undefined;
      const young = httpSelected.some(PARTIAL_TARGETS.young)
        ? await startHttp('young', `Decorum (mcpPlugin), node ${YOUNG_GENERATION_FLAG}`, 'decorum-http.js', [], [YOUNG_GENERATION_FLAG])
        : undefined;
      const reducer = httpSelected.some(PARTIAL_TARGETS.reducer)
        ? await startHttp('reducer', REDUCER_LABEL, 'decorum-http.js', [], [], { memoryReducer: true })
        : undefined;
      const sdk = await startHttp('sdk', 'SDK v2 (createMcpHandler + toNodeHandler, createMcpFastifyApp)', 'sdk-http.js');
      // The SDK's stateless handler has no legacy sessions to measure.
      if (sdk) sdk.serves = (w) => !w.legacy;

      // Verify every target answers each workload once; capture the bytes L0 will serve.
      const bodies = {};
      const reference = {};
      for (const t of [decorum, pipeline, young, reducer, sdk].filter(Boolean)) {
        for (const w of httpSelected.filter((w) => serves(t, w))) {
          const v = await verifyHttp(t.port, w);
          if (v.error) {
            t.broken[w.id] = v.error;
            log(`bench: ${t.label} fails ${w.id}: ${v.error}`);
          } else if ((t.id === 'decorum' || t.id === 'sdk') && (!reference[w.id] || t.id === 'decorum')) {
            // An SSE answer (a legacy session's call that streamed) is served by L0 as the JSON of its message.
            const text = (v.contentType ?? '').includes('text/event-stream') ? JSON.stringify(readAnswer(v.contentType, v.text)) : v.text;
            reference[w.id] = { text, from: t.id, contentType: v.contentType };
          }
        }
      }
      for (const w of httpSelected) {
        // L0 answers the request's own id? No: a fixed result of the same bytes (id 1, as sent).
        const ref = reference[w.id] ?? { text: JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} }), from: 'synthetic' };
        bodies[w.tool ? `${w.path}:${w.tool}` : w.path] = ref.text;
        w.l0From = ref.from;
        w.answerBytes = Buffer.byteLength(ref.text);
      }
      const bodiesFile = join(tmp, 'l0-bodies.json');
      writeFileSync(bodiesFile, JSON.stringify(bodies));
      const l0 = await startHttp('l0', 'L0 (plain Fastify route)', 'l0-http.js', [bodiesFile]);
      const calibration = httpSelected.some(PARTIAL_TARGETS.l0busy)
        ? await startHttp('l0busy', `L0 + ${CALIBRATION_US} µs of CPU work per request (calibration)`, 'l0-http.js', [
            bodiesFile,
            `--busy-us=${CALIBRATION_US}`,
          ])
        : undefined;
      const l0young = httpSelected.some(PARTIAL_TARGETS.l0young)
        ? await startHttp('l0young', `L0 (plain Fastify route), node ${YOUNG_GENERATION_FLAG}`, 'l0-http.js', [bodiesFile], [YOUNG_GENERATION_FLAG])
        : undefined;
      for (const t of [l0, calibration, l0young].filter(Boolean)) {
        for (const w of httpSelected.filter((w) => serves(t, w))) {
          const v = await verifyHttp(t.port, w);
          if (v.error) t.broken[w.id] = v.error;
        }
      }
      const ordered = [l0, calibration, l0young, decorum, pipeline, young, reducer, sdk].filter(Boolean);
      Object.assign(results.http, await httpRounds(ordered, httpSelected));
      for (const t of ordered) {
        results.rss[`http:${t.id}`] = t.proc.peakRssKiB();
        for (const [w, e] of Object.entries(t.broken)) results.unavailable[`${t.id}:${w}`] = e;
      }
      results.httpTargets = ordered.map((t) => ({ id: t.id, label: t.label }));
      results.httpWorkloads = httpSelected.map((w) => ({
        id: w.id,
        title: w.title,
        legacy: w.legacy,
        answerBytes: w.answerBytes,
        l0From: w.l0From,
        tools: w.tools,
      }));
      for (const t of ordered) await t.proc.stop();
    }

    // ---- stdio ----------------------------------------------------------------------------
    if (stdioSelected) {
      const decorum = await startStdio('decorum', 'Decorum (mcp-serve)', ['packages/cli/dist/bin.js', rel('decorum-stdio.js')]);
      const sdk = await startStdio('sdk', 'SDK v2 (serveStdio)', [rel('sdk-stdio.js')]);
      const lineFile = join(tmp, 'echo-line.txt');
      writeFileSync(lineFile, (decorum ?? sdk)?.line ?? '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"42"}]}}');
      const echo = await startStdio('echo', 'bare line loop', [rel('echo-stdio.js'), lineFile]);
      const floor = await startStdio('floor', 'JSON floor (parse + stringify only)', [rel('json-floor-stdio.js')]);
      const ordered = [echo, floor, decorum, sdk].filter(Boolean);
      Object.assign(results.stdio, await stdioRounds(ordered));
      for (const t of ordered) results.rss[`stdio:${t.id}`] = t.proc.peakRssKiB();
      results.stdioTargets = ordered.map((t) => ({ id: t.id, label: t.label, answerBytes: Buffer.byteLength(t.line) + 1 }));
      for (const t of ordered) await t.proc.stop();
    }

    // ---- idle subscriptions/listen streams ---------------------------------------------------
    // bench/listen-memory.mjs starts the server, opens the streams and reports the server's
    // memory as JSON; it runs as a child so that it can raise its own open-files limit.
    if (selected('listen')) {
      results.listenStreams = LISTEN_STREAMS;
      for (const id of ['decorum', 'sdk']) {
        log(`bench: ${fmt(LISTEN_STREAMS)} idle subscriptions/listen streams on ${id}`);
        const r = await jsonChild(`listen:${id}`, 'listen-memory.mjs', { args: [id], env: { LISTEN_STREAMS: String(LISTEN_STREAMS) } });
        if (r) {
          results.listen[id] = r;
          log(`bench: ${id}: ${mib(r.open.rss)} MiB RSS with the streams open, ${mib(r.baseline.rss)} MiB before`);
        }
      }
    }

    // ---- idle legacy (2025-11-25) HTTP sessions (bench/legacy-session-memory.mjs) -------------
    if (selected('sessions')) {
      log(`bench: ${fmt(LEGACY_SESSIONS)} idle legacy HTTP sessions`);
      results.sessions = await jsonChild('sessions', 'legacy-session-memory.mjs', { env: { LEGACY_SESSIONS: String(LEGACY_SESSIONS) } });
    }

    // ---- fan-out of one change over two instances on a Redis bus (bench/fanout.mjs) ----------
    if (selected('fanout')) {
      log(`bench: fan-out of one change to ${fmt(FANOUT_LISTENERS)} listeners over two instances (Redis bus)`);
      results.fanout = await jsonChild('fanout', 'fanout.mjs', { env: { FANOUT_LISTENERS: String(FANOUT_LISTENERS) } });
      if (results.fanout) log(`bench: fan-out: all ${fmt(FANOUT_LISTENERS)} delivered in ${ms(results.fanout.median.allMs)} ms (median)`);
    }

    // ---- cold start, idle RSS, import costs (stdio) ------------------------------------------
    if (selected('cold')) {
      log('bench: cold start, idle RSS and import costs (bench/cold-start.mjs)');
      results.cold = await jsonChild('cold', 'cold-start.mjs');
      for (const [id, error] of Object.entries(results.cold?.errors ?? {})) results.unavailable[`cold:${id}`] = error;
    }

    // ---- the hardening's cost in instructions (bench/instructions.mjs, valgrind) --------------
    // Last of the measurements (it takes longest) but for `change`; it builds its own second tree.
    if (selected('instructions')) {
      log("bench: the hardening's cost in instructions (bench/instructions.mjs, ~45 min)");
      results.instructions = await jsonChild('instructions', 'instructions.mjs', { timeoutMs: INSTRUCTIONS_TIMEOUT_MS });
    }

    // ---- a change's cost: Decorum at two commits, same tools, same run (bench/commit-build.mjs) --
    if (selected('change')) {
      results.changes = [];
      for (const range of CHANGES) {
        const measured = await measureChange(range, sources, swc);
        if (measured.error) {
          results.unavailable[`change ${range}`] = measured.error;
          log(`bench: the cost of ${range} not measured: ${measured.error.split('\n')[0]}`);
        } else results.changes.push(measured);
      }
    }
  } finally {
    for (const p of processes) await p.stop();
  }

  const finishedAt = new Date();
  const md = report({ startedAt, finishedAt, build, results });
  writeFileSync(OUT, md);
  log(`bench: wrote ${relative(ROOT, OUT)} (${((finishedAt - startedAt) / 1000).toFixed(0)} s)`);
  process.stdout.write(md);
}

// ---------------------------------------------------------------------------------------------
// 7. RESULTS.md

const fmt = (n, digits = 0) => (Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : '–');
const ms = (n) => (Number.isFinite(n) ? (n < 10 ? n.toFixed(2) : n.toFixed(1)) : '–');
const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? a / b : NaN);
/** The per-round ratios of a's metric over b's (rounds where either side has no number left out). */
const roundRatios = (a, b, metric = 'rps') => (a?.runs ?? []).map((x, i) => ratio(x[metric], b?.runs?.[i]?.[metric])).filter(Number.isFinite);
/** Median over the rounds of a's metric (req/s by default) ÷ b's in the same round (both summaries); NaN without rounds. */
const roundRatio = (a, b, metric = 'rps') => median(roundRatios(a, b, metric));
/**
 * A distribution-free 95 % interval of the median that `values` sample: the k-th smallest and k-th
 * largest value, k the largest with P(Binomial(n, ½) < k) ≤ 2.5 % (order statistics; no
 * assumption about the noise's shape). `undefined` under 6 values, where no such interval exists.
 */
function medianInterval(values) {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  const n = sorted.length;
  let k = 0;
  let below = 0; // P(Binomial(n, ½) ≤ j)
  let term = 0.5 ** n; // P(Binomial(n, ½) = j)
  for (let j = 0; j < n; j++) {
    below += term;
    if (below > 0.025) break;
    k = j + 1;
    term = (term * (n - j)) / (j + 1);
  }
  return k === 0 ? undefined : [sorted[k - 1], sorted[n - k]];
}
/** The per-round ratios of a's metric over b's, as a cell: the median, and min–max when there are several rounds. */
const ratioCell = (a, b, metric = 'rps') => {
  const per = roundRatios(a, b, metric);
  if (per.length < 2) return fmtRatio(roundRatio(a, b, metric));
  return `${fmtRatio(median(per))} (${fmtRatio(Math.min(...per))}–${fmtRatio(Math.max(...per))})`;
};
const fmtRatio = (r) => (Number.isFinite(r) ? (r >= 10 ? `${r.toFixed(0)}×` : r >= 1 ? `${r.toFixed(2)}×` : r.toFixed(2)) : '–');
/** Bytes (or bytes per second) in MiB. */
const mib = (bytes) => (Number.isFinite(bytes) ? (bytes / 2 ** 20).toFixed(1) : '–');
const pct = (r) => (Number.isFinite(r) ? `${(r * 100).toFixed(0)} %` : '–');
const micros = (n) => fmt(n, n < 100 ? 1 : 0);
/** The three server-CPU cells of a table row: µs per answered request, its ratio to the reference target's, share of a core. */
const cpuCells = (s, reference, isReference) =>
  `${micros(s.cpuUsPerReq)} | ${isReference ? '1.00' : ratioCell(s, reference, 'cpuUsPerReq')} | ${pct(s.cpuShare)}`;
/** A table row for a target that was not measured: its leading cells, then padding to the table's `columns`. */
const notMeasured = (cells, columns) => `| ${cells.join(' | ')} | not measured |${' |'.repeat(columns - cells.length - 1)}`;
const CPU_NOTE =
  "CPU µs/req is the server process's own CPU time (user + system, all threads, from /proc/<pid>/stat) during the run divided by the answers it gave; its ratio is over the reference target's in the same round (median of the per-round ratios), and server CPU is that CPU time over the run's wall time, in % of one core. The load generator shares the machine's cores, so req/s partly measures it; the CPU columns do not, and a server well under 100 % was waiting for the load generator.";

function report({ startedAt, finishedAt, build, results }) {
  const m = machine();
  const lines = [];
  const p = (s = '') => lines.push(s);
  p('# Decorum benchmark results');
  p();
  p(
    `Written by \`npm run bench\` (bench/run.mjs) on ${startedAt.toISOString()} in ${((finishedAt - startedAt) / 1000).toFixed(0)} s. What the numbers mean: [README.md](README.md).`,
  );
  p();
  p('## Machine');
  p();
  p(`- CPU: ${m.cpu}, ${m.cores} cores; memory ${m.memory}; ${m.os}`);
  p(
    `- Node ${m.node}; load average at the end ${m.load}; ${PIN ? `servers pinned to core ${SERVER_CORE}, the load generator (this process) to core ${CLIENT_CORE} (taskset)` : 'not pinned (BENCH_PIN=0, one core or no taskset): the load generator runs on the same cores as the servers'}`,
  );
  p(
    `- Each measurement ${DURATION} s, in two halves of ${DURATION / 2} s: each round measures every workload on every target one after the other, then again in reverse (A B C | C B A, L0 or the JSON floor, Decorum and the pipeline variant back to back in the middle), and adds each target's halves up; ${ROUNDS} rounds; values are medians of the rounds, ratios medians of the per-round ratios; ${WARMUP} s warm-up per target and workload before the first round; after each measurement the next waits until the server just measured is idle (≤ 1 clock tick of CPU in ${IDLE_WINDOW_MS} ms, ${IDLE_WAIT_LIMIT_MS / 1000} s at most).`,
  );
  p(
    `- Every HTTP and stdio server (L0, the JSON floor, the SDK and Decorum alike) runs with \`node ${STEADY_STATE_FLAGS.join(' ')}\`, but for the row "${REDUCER_LABEL}": the reducer's idle-time collection strikes only a process that had a full collection, and sends its optimized code back to the interpreter for a spell (docs/perf-notes.md, "Mirrored halves, and V8's memory reducer").`,
  );
  p(`- Decorum build: ${build.note.split('\n')[0]}`);
  p();
  p('## Versions');
  p();
  p('| package | version |');
  p('| --- | --- |');
  for (const pkg of [
    '@decorum/core',
    '@decorum/fastify',
    '@decorum/stdio',
    '@decorum/cli',
    '@modelcontextprotocol/server',
    '@modelcontextprotocol/node',
    '@modelcontextprotocol/fastify',
    'fastify',
    'typebox',
    'class-validator',
    'zod',
    'autocannon',
  ]) {
    p(`| ${pkg} | ${version(pkg)} |`);
  }
  p();

  const unavailable = Object.entries(results.unavailable);
  if (unavailable.length) {
    p('## Not measured (the target failed its check)');
    p();
    for (const [what, error] of unavailable) {
      p(`- **${what}**:`);
      p('  ```');
      for (const l of error.split('\n').slice(0, 12)) p(`  ${l}`);
      p('  ```');
    }
    p();
  }

  const get = (key, id) => results.http[key]?.[id];
  const targetsMet = [];

  if (results.httpWorkloads?.length) {
    p('## HTTP (autocannon, 127.0.0.1, one request per connection at a time)');
    p();
    p(
      "req/s are 2xx answers per second (median of the rounds); p50/p99 in ms; MB/s is the response bytes read per second (MiB/s, headers included). Ratios are Decorum's and the SDK's req/s over L0's, and Decorum's over the SDK's (median of the per-round ratios).",
    );
    p();
    p(CPU_NOTE);
    p();
    const label = Object.fromEntries((results.httpTargets ?? []).map((t) => [t.id, t.label]));
    for (const w of results.httpWorkloads) {
      p(`### ${w.title}`);
      p();
      p(`Answer: ${fmt(w.answerBytes)} bytes of JSON (L0 serves ${w.l0From === 'decorum' ? "Decorum's exact answer bytes" : `the ${w.l0From} answer bytes`}).`);
      p();
      p('| connections | target | req/s | p50 ms | p99 ms | MB/s | ÷ L0 | ÷ SDK | CPU µs/req | CPU ÷ L0 | server CPU | errors |');
      p('| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
      for (const c of CONNECTIONS) {
        const key = `${w.id}@${c}`;
        const l0 = get(key, 'l0');
        const sdk = get(key, 'sdk');
        for (const id of ['l0', 'l0busy', 'l0young', 'decorum', 'pipeline', 'young', 'reducer', 'sdk']) {
          const s = get(key, id);
          if (!s && PARTIAL_TARGETS[id] && !PARTIAL_TARGETS[id](w)) continue;
          if (!s) {
            p(notMeasured([c, label[id] ?? id], 12));
            continue;
          }
          p(
            `| ${c} | ${label[id] ?? id} | ${fmt(s.rps)} | ${ms(s.p50)} | ${ms(s.p99)} | ${mib(s.bytesPerSec)} | ${id === 'l0' ? '1.00' : ratioCell(s, l0)} | ${id === 'sdk' ? '1.00' : ratioCell(s, sdk)} | ${cpuCells(s, l0, id === 'l0')} | ${s.errors} |`,
          );
        }
      }
      p();
    }
  }

  if (results.stdioTargets?.length) {
    p('## stdio (round-trips per second, tools/call of add_typebox)');
    p();
    p(
      "A client in the bench process keeps N newline-delimited requests in flight on the server's stdin and counts answer lines on its stdout. The bare loop answers each line with a fixed line of the same bytes as Decorum's answer. The JSON floor parses each line and stringifies an answer of the same shape, one write per chunk, and nothing else: what the JSON work alone costs any JSON-RPC server. p50/p99 are measured with 1 in flight only.",
    );
    p();
    p(CPU_NOTE.replace('the reference target', 'the bare loop'));
    p();
    p('| in flight | target | round-trips/s | p50 ms | p99 ms | ÷ bare loop | ÷ JSON floor | ÷ SDK | CPU µs/req | CPU ÷ bare loop | server CPU |');
    p('| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    const label = Object.fromEntries(results.stdioTargets.map((t) => [t.id, t.label]));
    for (const n of IN_FLIGHT) {
      const key = `stdio@${n}`;
      const echo = results.stdio[key]?.echo;
      const sdk = results.stdio[key]?.sdk;
      const floor = results.stdio[key]?.floor;
      for (const id of ['echo', 'floor', 'decorum', 'sdk']) {
        const s = results.stdio[key]?.[id];
        if (!s) {
          p(notMeasured([n, label[id] ?? id], 11));
          continue;
        }
        p(
          `| ${n} | ${label[id] ?? id} | ${fmt(s.rps)} | ${n === 1 ? ms(s.p50) : '–'} | ${n === 1 ? ms(s.p99) : '–'} | ${id === 'echo' ? '1.00' : ratioCell(s, echo)} | ${id === 'floor' ? '1.00' : ratioCell(s, floor)} | ${id === 'sdk' ? '1.00' : ratioCell(s, sdk)} | ${cpuCells(s, echo, id === 'echo')} |`,
        );
      }
    }
    p();
  }

  p('## Memory');
  p();
  p('### Peak RSS of each server process (VmHWM, over all of its runs above)');
  p();
  const rssLabel = {
    'http:l0': 'HTTP L0 (plain Fastify)',
    'http:l0busy': `HTTP L0 + ${CALIBRATION_US} µs per request (calibration)`,
    'http:decorum': 'HTTP Decorum (mcpPlugin, 4 endpoints: bench tools + 1/50/500-tool lists)',
    'http:pipeline': 'HTTP Decorum + 3 middlewares + tracing (bench tools)',
    'http:l0young': `HTTP L0, node ${YOUNG_GENERATION_FLAG}`,
    'http:young': `HTTP Decorum (mcpPlugin), node ${YOUNG_GENERATION_FLAG}`,
    'http:reducer': `HTTP ${REDUCER_LABEL}`,
    'http:sdk': 'HTTP SDK v2 (same endpoints)',
    'stdio:echo': 'stdio bare line loop',
    'stdio:floor': 'stdio JSON floor (parse + stringify only)',
    'stdio:decorum': 'stdio Decorum (mcp-serve)',
    'stdio:sdk': 'stdio SDK v2 (serveStdio)',
  };
  if (Object.keys(results.rss).length === 0) p('No HTTP or stdio server ran in this run (BENCH_ONLY).');
  else {
    p('| process | peak RSS |');
    p('| --- | ---: |');
    for (const [k, v] of Object.entries(results.rss)) p(`| ${rssLabel[k] ?? k} | ${v ? `${(v / 1024).toFixed(1)} MiB` : '–'} |`);
  }
  p();
  const streams = results.listenStreams;
  p(`### ${streams ? fmt(streams) : fmt(LISTEN_STREAMS)} idle \`subscriptions/listen\` streams over HTTP`);
  p();
  if (!streams) p(notMeasuredSentence('listen', false));
  else {
    p(
      `bench/listen-memory.mjs starts a fresh server with one tool in its own process, opens ${fmt(streams)} listens for tools/list changes from 127.0.0.1 (one connection each) and waits for every acknowledgement; the server then reports its RSS after a forced GC. "Per stream" is the growth over the RSS before any stream was opened, divided by the streams. It then publishes one tools/list change (fan-out: until every stream has it), closes every stream and times until the server has dropped every subscriber.`,
    );
    p();
    p(
      '| server | RSS in total, streams open | RSS before | per stream (RSS) | per stream (JS heap) | peak RSS | open + ack | fan-out of one change | close | subscribers left |',
    );
    p('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const id of ['decorum', 'sdk']) {
      const r = results.listen[id];
      if (!r) {
        p(notMeasured([id], 10));
        continue;
      }
      const perStream = (field) => `${((r.open[field] - r.baseline[field]) / r.streams / 1024).toFixed(1)} KiB`;
      p(
        `| ${r.label} | ${mib(r.open.rss)} MiB | ${mib(r.baseline.rss)} MiB | ${perStream('rss')} | ${perStream('heapUsed')} | ${mib(r.open.peakRss)} MiB | ${fmt(r.openMs)} ms | ${fmt(r.fanOutMs)} ms | ${fmt(r.closeMs)} ms | ${r.subscribersAfterClose} |`,
      );
    }
  }
  p();

  p('### Fan-out of one change over two instances (Redis bus)');
  p();
  const fan = results.fanout;
  if (!fan) p(notMeasuredSentence('fanout', results.unavailable.fanout));
  else {
    p(
      `bench/fanout.mjs starts a redis-server and two Decorum HTTP servers (mcpPlugin with a RedisNotificationBus, one process each), opens ${fmt(fan.listeners)} listens spread evenly over the two, then ${fan.rounds} times makes one change on the first instance (live.tools.disable / enable) and times, from the change request, until each stream has its tools/list_changed. "Remote" streams are on the second instance: the change is replicated through Redis and that instance publishes its own. Medians of the rounds, in ms.`,
    );
    p();
    p('| listeners | all delivered | p50 | p99 | local done | remote p50 | remote done | left buffered / dropped |');
    p('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    const m = fan.median;
    p(
      `| ${fmt(fan.listeners)} | ${ms(m.allMs)} | ${ms(m.p50Ms)} | ${ms(m.p99Ms)} | ${ms(m.localMaxMs)} | ${ms(m.remoteP50Ms)} | ${ms(m.remoteMaxMs)} | ${fan.buffered.join('+')} / ${fan.dropped.join('+')} |`,
    );
  }
  p();

  p(`### ${fmt(LEGACY_SESSIONS)} idle legacy (2025-11-25) HTTP sessions`);
  p();
  const ls = results.sessions;
  if (!ls) p(notMeasuredSentence('sessions', results.unavailable.sessions));
  else {
    p(
      `bench/legacy-session-memory.mjs starts a Decorum HTTP server (mcpPlugin, one tool) in its own process, opens ${fmt(ls.sessions)} legacy sessions (initialize + notifications/initialized, over 8 keep-alive connections), and reads the server's memory after a forced GC before and after; then it ends every session with DELETE.`,
    );
    p();
    p('| sessions | opened in | heap per session | RSS per session | heap / RSS with all open | ended by DELETE | heap after |');
    p('| ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    p(
      `| ${fmt(ls.sessions)} | ${(ls.openMs / 1000).toFixed(1)} s | ${(ls.heapPerSession / 1024).toFixed(2)} KiB | ${(ls.rssPerSession / 1024).toFixed(2)} KiB | ${mib(ls.heapAfter)} / ${mib(ls.rssAfter)} MiB | ${fmt(ls.deleted)} | ${mib(ls.heapAfterDelete)} MiB |`,
    );
  }
  p();

  p("## A change's cost: Decorum at two commits in the same run");
  p();
  p(
    `bench/commit-build.mjs exports each side with \`git archive\` (applying the patch a side names, if any), installs it from its own lock file and builds it; both serve the bench's current server sources through their own packages. Each of the ${CHANGE_ROUNDS} rounds starts a fresh pair of processes (two processes of one build differ by up to ~8 % for as long as they live), warms them ${CHANGE_WARMUP} s per workload and measures them once, in alternation. after ÷ before is the median (min–max) of the per-round ratios.`,
  );
  p();
  const changes = results.changes ?? [];
  if (changes.length === 0) p(notMeasuredSentence('change', results.changes));
  const sideName = (side) => `**${side.commit.slice(0, 10)}**${side.patch ? ` with ${side.patch} applied` : ''} (“${side.subject}”)`;
  for (const ch of changes) {
    const [before, after] = ch.sides;
    p(`### \`${ch.range}\``);
    p();
    p(`${CHANGE_TITLES[ch.range] ?? ''}Decorum at ${sideName(after)} against ${sideName(before)}.`);
    p();
    p('| workload | before req/s | after req/s | after ÷ before | before CPU µs/req | after CPU µs/req | CPU after ÷ before |');
    p('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const [key, bySide] of [...Object.entries(ch.http), ...Object.entries(ch.stdio)]) {
      const b = bySide.before;
      const a = bySide.after;
      p(
        `| ${key.startsWith('stdio') ? key.replace('stdio@', 'stdio, in flight ') : `HTTP ${key.replace('@', ', connections ')}`} | ${fmt(b?.rps)} | ${fmt(a?.rps)} | ${ratioCell(a, b)} | ${micros(b?.cpuUsPerReq)} | ${micros(a?.cpuUsPerReq)} | ${ratioCell(a, b, 'cpuUsPerReq')} |`,
      );
    }
    p();
  }

  p("### The hardening's cost in instructions");
  p();
  const instr = results.instructions;
  if (!instr) p(notMeasuredSentence('instructions', results.unavailable.instructions));
  else {
    const st = instr.settings;
    p(
      `bench/instructions.mjs runs HEAD and HEAD with bench/patches/without-hardening.patch (built as above) under valgrind's callgrind (\`node ${st.flags.join(' ')}\`) and counts the user-space instructions per tools/call of add_typebox, after a warm-up (HTTP ${fmt(st.httpWarm)} × 2 requests, stdio ${fmt(st.stdioWarm)}), a full GC and as much warm-up again: over HTTP at 64 connections (${fmt(st.httpCount)} counted) and over stdio (mcp-serve) in lock-step batches of 1 and 64. Each side runs ${st.repeat === 1 ? 'once' : `${st.repeat} times`}; the lowest count is kept (stray work only adds). The counts do not move with the machine's neighbours as req/s do (the change step above, and its A/A row), so issue #13's 2 % bound is judged on them (docs/perf-notes.md, "Instructions, made stable again").`,
    );
    p();
    p('| tools/call add_typebox | HEAD | without the hardening | HEAD ÷ without | L0 | HEAD ÷ L0 |');
    p('| --- | ---: | ---: | ---: | ---: | ---: |');
    for (const r of instr.rows) {
      const counts = (runs) => runs?.map((n) => fmt(n)).join(', ') ?? '–';
      p(`| ${r.transport} | ${counts(r.head)} | ${counts(r.base)} | ${r.ratio.toFixed(3)} | ${counts(r.l0)} | ${r.overL0?.toFixed(3) ?? '–'} |`);
    }
    p();
    p(
      "Over HTTP, L0 (the plain Fastify route, serving HEAD's answer bytes) is counted the same way: HEAD ÷ L0 is the server's work per request against the limit's, for issue #17's CPU bound, read where req/s and CPU time move with the machine's neighbours. Instructions are not time (caches, branches and the kernel are left out): the bound is judged on CPU time above, this row shows how far the work alone is from it.",
    );
    p();
  }
  const cold = results.cold;
  /** Median over the paired runs of a's cold-start time ÷ b's (run i of each was spawned one after the other). */
  const pairedRatio = (a, b, field = 'exit') => median((cold?.cold[a]?.[field].runs ?? []).map((x, i) => ratio(x, cold.cold[b]?.[field].runs[i])));
  const range = (st) => `${fmt(st.median)} (${fmt(st.min)}–${fmt(st.max)})`;
  if (cold) {
    p('## Cold start (stdio)');
    p();
    p(
      `bench/cold-start.mjs spawns each target ${cold.coldRuns} times, alternating targets run by run (after one uncounted run each), writes a \`tools/list\` at once, closes stdin on the first answer line and waits for the process to exit: what a host pays when it launches a server. ms, median (min–max); ÷ SDK is the median of the paired runs' ratios.`,
    );
    p();
    p('| target | first answer ms | exit ms | exit ÷ SDK |');
    p('| --- | ---: | ---: | ---: |');
    for (const [id, c] of Object.entries(cold.cold))
      p(`| ${c.label} | ${range(c.firstAnswer)} | ${range(c.exit)} | ${id === 'sdk' ? '1.00' : fmtRatio(pairedRatio(id, 'sdk'))} |`);
    p();
    p('### Idle RSS');
    p();
    p('VmRSS 500 ms after the first answer (stdio) or after READY (HTTP), in a fresh process.');
    p();
    p('| process | idle RSS | ÷ L0 |');
    p('| --- | ---: | ---: |');
    const l0Rss = cold.idleRss['http-l0']?.kib;
    for (const r of Object.values(cold.idleRss))
      p(`| ${r.label} | ${Number.isFinite(r.kib) ? `${(r.kib / 1024).toFixed(1)} MiB` : '–'} | ${fmtRatio(ratio(r.kib, l0Rss))} |`);
    p();
    p('### What each import costs');
    p();
    p(
      `One fresh process per module, \`performance.now()\` around \`await import(module)\` (Node's own start-up not included), median (min–max) of ${Object.values(cold.imports)[0]?.runs?.length ?? '–'} runs. A module's time includes everything it imports; @decorum/core includes typebox/compile, class-validator and class-transformer, pino.`,
    );
    p();
    p('| module | ms |');
    p('| --- | ---: |');
    for (const [mod, st] of Object.entries(cold.imports)) p(`| ${mod} | ${st.error ? `failed: ${st.error}` : range(st)} |`);
    p();
  }

  // ---- Targets ----
  // Each row names its issue; a row is met only when every measurement behind it is.
  const row = (issue, target, status, number) => targetsMet.push({ target: `#${issue}: ${target}`, status, number });
  const judge = (value, bound, cmp = '>=') =>
    !Number.isFinite(value) ? 'not measured' : (cmp === '>=' ? value >= bound : value <= bound) ? '**met**' : '**not met**';
  /** met only if every check is; "not measured" if any value is missing. */
  const judgeAll = (checks) =>
    checks.some(([v]) => !Number.isFinite(v))
      ? 'not measured'
      : checks.every(([v, bound, cmp]) => judge(v, bound, cmp) === '**met**')
        ? '**met**'
        : '**not met**';
  const rps = (key, id) => fmt(get(key, id)?.rps);
  {
    // Issue #17, target 1: every HTTP workload at 1 and 64 connections, by req/s and by server CPU.
    for (const w of results.httpWorkloads ?? []) {
      if (w.id === 'call-legacy') continue;
      const checks = [];
      const cells = CONNECTIONS.map((c) => {
        const d = get(`${w.id}@${c}`, 'decorum');
        const l0 = get(`${w.id}@${c}`, 'l0');
        checks.push([roundRatio(d, l0), 0.8], [roundRatio(d, l0, 'cpuUsPerReq'), 1.25, '<=']);
        return `${c} conn: ${ratioCell(d, l0)} of L0 (${fmt(d?.rps)} vs ${fmt(l0?.rps)} req/s), CPU ${ratioCell(d, l0, 'cpuUsPerReq')} (${micros(d?.cpuUsPerReq)} vs ${micros(l0?.cpuUsPerReq)} µs/req)`;
      });
      row(17, `HTTP ${w.title}: ≥ 0.80 of L0 by req/s and server CPU per request ≤ 1.25× L0's, at 1 and 64 connections`, judgeAll(checks), cells.join('; '));
    }
    // The same CPU bound read in instructions (the `instructions` step), where neighbours do not move it.
    const httpInstr = results.instructions?.rows.find((r) => r.overL0 !== undefined);
    row(
      17,
      'Server work per request in instructions, Decorum ÷ L0 (HTTP tools/call, TypeBox, 64 connections; not time, so not the verdict)',
      !httpInstr ? 'not measured' : results.instructions.settings.full ? 'measured' : 'measured, a quick look (INSTR_* set below the defaults)',
      httpInstr
        ? `${httpInstr.overL0.toFixed(2)}× (${fmt(Math.min(...httpInstr.head))} vs ${fmt(Math.min(...httpInstr.l0))} instructions per call)`
        : whyNotMeasured('instructions', results.unavailable.instructions),
    );
    // The calibration: what CALIBRATION_US µs of work per request cost L0, for reading the row above.
    const busy = CONNECTIONS.map((c) => {
      const b = get(`call-typebox@${c}`, 'l0busy');
      const l0 = get(`call-typebox@${c}`, 'l0');
      const added = b && l0 ? b.cpuUsPerReq - l0.cpuUsPerReq : NaN;
      const addedCell = Number.isFinite(added) ? `${added < 0 ? '−' : '+'}${micros(Math.abs(added))}` : '–';
      return `${c} conn: ${ratioCell(b, l0)} of L0's req/s, CPU ${ratioCell(b, l0, 'cpuUsPerReq')} (${addedCell} µs/req)`;
    });
    row(
      17,
      `Calibration: what ${CALIBRATION_US} µs of CPU work per request cost L0 (tools/call, TypeBox)`,
      get('call-typebox@64', 'l0busy') ? 'measured' : 'not measured',
      busy.join('; '),
    );
    // What README's Node tuning is worth: Decorum and L0 both started with YOUNG_GENERATION_FLAG.
    const youngCells = YOUNG_WORKLOADS.flatMap((id) =>
      CONNECTIONS.map((c) => {
        const key = `${id}@${c}`;
        const y = get(key, 'young');
        const l0y = get(key, 'l0young');
        return `${id} ${c} conn: ${ratioCell(y, l0y)} of L0 with the flag (CPU ${ratioCell(y, l0y, 'cpuUsPerReq')}), ${ratioCell(y, get(key, 'decorum'))} of plain Decorum; L0 with it ${ratioCell(l0y, get(key, 'l0'))} of plain L0`;
      }),
    );
    row(
      17,
      `Decorum and L0 with \`node ${YOUNG_GENERATION_FLAG}\` (README, "Tuning Node for an HTTP server"): not a target, what the setting is worth`,
      get('call-typebox@64', 'young') && get('call-typebox@64', 'l0young') ? 'measured' : 'not measured',
      youngCells.join('; '),
    );
    // What the reducer's idle-time collections cost Decorum: the target started without STEADY_STATE_FLAGS.
    const reducerCells = CONNECTIONS.map((c) => {
      const key = `call-typebox@${c}`;
      const r = get(key, 'reducer');
      return `${c} conn: ${ratioCell(r, get(key, 'l0'))} of L0's req/s (CPU ${ratioCell(r, get(key, 'l0'), 'cpuUsPerReq')}), ${ratioCell(r, get(key, 'decorum'))} of Decorum with the flag`;
    });
    row(
      17,
      `${REDUCER_LABEL}, every other server \`node ${STEADY_STATE_FLAGS.join(' ')}\`: not a target, what the reducer's idle-time collections cost (tools/call, TypeBox)`,
      get('call-typebox@64', 'reducer') ? 'measured' : 'not measured',
      reducerCells.join('; '),
    );
    const legacy = CONNECTIONS.map((c) => roundRatio(get(`call-legacy@${c}`, 'decorum'), get(`call-typebox@${c}`, 'decorum')));
    row(
      17,
      'HTTP tools/call in a legacy 2025-11-25 session within 10 % of the modern call (Decorum, same tool, 1 and 64 connections)',
      judgeAll(legacy.map((r) => [r, 0.9])),
      `legacy ÷ modern ${legacy.map(fmtRatio).join(' (1 conn) / ')} (64 conn); ${rps('call-legacy@64', 'decorum')} vs ${rps('call-typebox@64', 'decorum')} req/s at 64`,
    );
    // Target 2: stdio against the JSON floor (parse + stringify only).
    const s = results.stdio['stdio@64'];
    const floor = roundRatio(s?.decorum, s?.floor);
    row(
      17,
      'stdio at 64 in flight ≥ 0.90 of the JSON floor',
      judge(floor, 0.9),
      `${ratioCell(s?.decorum, s?.floor)} (${fmt(s?.decorum?.rps)} vs ${fmt(s?.floor?.rps)} round-trips/s); CPU ${micros(s?.decorum?.cpuUsPerReq)} vs ${micros(s?.floor?.cpuUsPerReq)} µs/req`,
    );
    // Targets 3 and 4: cold start, idle RSS, what the .ts loader costs.
    const c = cold?.cold ?? {};
    const cr = pairedRatio('decorum-weather', 'sdk');
    row(
      17,
      'Cold start ≤ the SDK v2 stdio server (spawn → first answer → exit, built weather example, paired runs)',
      judge(cr, 1, '<='),
      c['decorum-weather']
        ? `${fmtRatio(cr)} of the SDK: ${range(c['decorum-weather'].exit)} vs ${range(c.sdk?.exit ?? { median: NaN, min: NaN, max: NaN })} ms; the same bench tools as the SDK: ${fmtRatio(pairedRatio('decorum-bench', 'sdk'))}`
        : 'not measured in this run',
    );
    const rss = cold?.idleRss ?? {};
    const rr = ratio(rss['decorum-weather']?.kib, rss['http-l0']?.kib);
    row(
      17,
      'Idle RSS of mcp-serve on a built module ≤ 1.3× L0',
      judge(rr, 1.3, '<='),
      cold ? `${fmtRatio(rr)}: ${mib(rss['decorum-weather']?.kib * 1024)} vs ${mib(rss['http-l0']?.kib * 1024)} MiB` : 'not measured in this run',
    );
    const tsRss = rss['decorum-weather-ts']?.kib - rss['decorum-weather']?.kib;
    const tsTime = c['decorum-weather-ts'] && c['decorum-weather'] ? c['decorum-weather-ts'].exit.median - c['decorum-weather'].exit.median : NaN;
    row(
      17,
      'What the .ts loader costs (mcp-serve on weather.ts vs the built weather.js)',
      Number.isFinite(tsRss) ? 'measured' : 'not measured',
      Number.isFinite(tsRss) ? `+${mib(tsRss * 1024)} MiB idle RSS, +${fmt(tsTime)} ms cold start (swc and its hooks thread)` : 'not measured in this run',
    );
    // Target 5: stable ratios.
    row(
      17,
      'Stable ratios: server and load generator pinned to different cores, min–max beside each median',
      PIN && ROUNDS >= 3 ? '**met**' : '**not met**',
      `${PIN ? 'pinned (taskset)' : 'not pinned'}; ${ROUNDS} rounds; every ratio cell shows median (min–max) of the per-round ratios`,
    );
  }
  {
    // Issue #13: the hardening's cost. Judged on the code as it is (HEAD against HEAD without the
    // hardening's per-request steps); the merge against its parent is what it cost as it landed.
    const hardeningRow = (range, title, judged) => {
      const ch = results.changes?.find((c) => c.range === range);
      if (!ch) {
        row(
          13,
          title,
          'not measured',
          results.changes ? `not measured in this run (BENCH_CHANGE without ${range}, or see "Not measured")` : whyNotMeasured('change', false),
        );
        return;
      }
      const keys = [...Object.keys(ch.http), ...Object.keys(ch.stdio)];
      const sides = (key) => ch.http[key] ?? ch.stdio[key];
      const perKey = keys.map((key) => roundRatios(sides(key)?.after, sides(key)?.before));
      const intervals = perKey.map(medianInterval);
      // The bound (2 %) is no wider than the noise of one round, so the verdict rests on each
      // median's 95 % interval over the rounds: shown to hold, shown not to, or neither.
      const verdict = () => {
        if (perKey.some((ratios) => ratios.length === 0)) return 'not measured';
        if (intervals.some((interval) => interval === undefined))
          return `**not shown** (${CHANGE_ROUNDS} rounds give no 95 % interval of a median; BENCH_CHANGE_ROUNDS ≥ 6)`;
        if (intervals.some(([, high]) => high < HARDENING_BOUND)) return '**not met**';
        if (intervals.every(([low]) => low >= HARDENING_BOUND)) return '**met**';
        return "**not shown** (a median's 95 % interval reaches below the bound)";
      };
      const cell = (key, i) => {
        const interval = judged && intervals[i] ? `, median's 95 % interval ${intervals[i].map((r) => r.toFixed(2)).join('–')}` : '';
        return `${key} ${ratioCell(sides(key)?.after, sides(key)?.before)}${interval}`;
      };
      row(13, title, !keys.length ? 'not measured' : judged ? verdict() : 'measured', keys.map(cell).join('; ') || 'not measured: see "Not measured"');
    };
    // The verdict: instructions per call, which settle 2 % where req/s cannot (see the A/A row).
    const instr = results.instructions;
    const instructionBound = 1 / HARDENING_BOUND;
    row(
      13,
      `The hardening costs ≤ 2 % of tools/call throughput, counted in instructions per call (HEAD ÷ HEAD without the hardening's per-request steps ≤ ${instructionBound.toFixed(3)}, HTTP and stdio)`,
      !instr
        ? 'not measured'
        : !instr.settings.full
          ? 'measured, not judged (INSTR_* set below the defaults)'
          : instr.rows.every((r) => r.ratio <= instructionBound)
            ? '**met**'
            : '**not met**',
      instr ? instr.rows.map((r) => `${r.transport} ${r.ratio.toFixed(3)}`).join('; ') : whyNotMeasured('instructions', results.unavailable.instructions),
    );
    hardeningRow(
      HARDENING_TODAY,
      "The same by req/s (HEAD ÷ HEAD without the hardening's per-request steps, HTTP and stdio; the bound is within one round's noise)",
      true,
    );
    hardeningRow(
      SAME_CODE,
      'The row above checked against itself: the same code in two trees laid out alike (HEAD ÷ HEAD with bench/patches/same-code.patch); 1.00 is no bias',
      false,
    );
    hardeningRow(HARDENING_CHANGE, 'What the hardening cost as it landed (its merge ÷ its first parent; the code has changed since)', false);
    // Issue #14: legacy sessions' memory (no bound was set: measured and reported).
    const ls = results.sessions;
    row(
      14,
      `Memory per idle legacy HTTP session with ${fmt(LEGACY_SESSIONS)} open`,
      ls ? 'measured' : 'not measured',
      ls
        ? `${(ls.heapPerSession / 1024).toFixed(2)} KiB heap, ${(ls.rssPerSession / 1024).toFixed(2)} KiB RSS per session; ${fmt(ls.deleted)} ended by DELETE`
        : 'not measured in this run',
    );
    // Issue #18: fan-out latency (no bound was set).
    row(
      18,
      `Fan-out of one change to ${fmt(FANOUT_LISTENERS)} listeners over two instances (Redis bus)`,
      results.fanout ? 'measured' : 'not measured',
      results.fanout
        ? `all delivered in ${ms(results.fanout.median.allMs)} ms (median of ${results.fanout.rounds} rounds); remote p50 ${ms(results.fanout.median.remoteP50Ms)} ms`
        : 'not measured in this run',
    );
    // Issue #19: the pipeline's cost.
    const mw = [1, 64].map((c) => roundRatio(get(`call-typebox@${c}`, 'pipeline'), get(`call-typebox@${c}`, 'decorum')));
    row(
      19,
      'HTTP tools/call: three middlewares plus tracing without an SDK cost ≤ 5 % (TypeBox tool, 1 and 64 connections)',
      judgeAll(mw.map((r) => [r, 0.95])),
      `${pct(mw[0])} (1 conn) / ${pct(mw[1])} (64 conn) of plain Decorum`,
    );
    // Issue #8's rows that no later issue restated.
    const xt = roundRatio(get('call-typebox@64', 'decorum'), get('call-typebox@64', 'sdk'));
    const xd = roundRatio(get('call-dto@64', 'decorum'), get('call-dto@64', 'sdk'));
    row(
      8,
      'HTTP tools/call at 64 connections > 10× the SDK v2',
      judgeAll([
        [xt, 10],
        [xd, 10],
      ]),
      `${fmtRatio(xt)} (TypeBox), ${fmtRatio(xd)} (DTO); SDK ${rps('call-typebox@64', 'sdk')} / ${rps('call-dto@64', 'sdk')} req/s`,
    );
    const dto = [1, 64].map((c) => roundRatio(get(`call-dto@${c}`, 'decorum'), get(`call-typebox@${c}`, 'decorum')));
    row(
      8,
      'DTO-validated call within 10 % of the TypeBox-validated call (Decorum req/s, 1 and 64 connections)',
      judgeAll(dto.map((r) => [r, 0.9])),
      `DTO ÷ TypeBox ${pct(dto[0])} (1 conn) / ${pct(dto[1])} (64 conn)`,
    );
    const listen = results.listen.decorum;
    const total = listen?.streams === LISTEN_TARGET_STREAMS ? listen.open.rss : NaN;
    row(
      8,
      `${fmt(LISTEN_TARGET_STREAMS)} idle listen streams under 300 MB RSS in total (Decorum HTTP server, after GC)`,
      judge(total, 300e6, '<='),
      listen
        ? `${mib(listen.open.rss)} MiB with ${fmt(listen.streams)} streams open${results.listen.sdk ? `; SDK v2: ${mib(results.listen.sdk.open.rss)} MiB` : ''}`
        : 'not measured in this run',
    );
  }
  p('## Targets');
  p();
  p('Each row names its issue. "measured" rows report a number the issue asked for without a bound.');
  p();
  p('| target | status | where it stands |');
  p('| --- | --- | --- |');
  for (const t of targetsMet) p(`| ${t.target} | ${t.status} | ${t.number} |`);
  p();
  p("## Raw rounds (req/s or round-trips/s of every round, in order, with the server's CPU µs/req)");
  p();
  for (const [key, byTarget] of [...Object.entries(results.http), ...Object.entries(results.stdio)]) {
    p(
      `- ${key}: ${Object.entries(byTarget)
        .map(([id, s]) => `${id} ${s.runs.map((r) => `${fmt(r.rps)} (${micros(r.cpuUsPerReq)} µs)`).join(', ')}`)
        .join('; ')}`,
    );
  }
  p();
  return lines.join('\n');
}

main().catch((error) => {
  log(`bench: failed: ${error?.stack ?? error}`);
  process.exit(1);
});
