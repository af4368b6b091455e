#!/usr/bin/env node
/**
 * `npm run bench:instructions`: what a change costs, counted in instructions. Decorum at both sides
 * of INSTR_CHANGE (`<before>..<after>` git revisions, built by commit-build.mjs as the bench's
 * `change` step builds them; by default the hardening as it landed, `186e539^1..186e539`) each
 * answers tools/call of add_typebox under valgrind's callgrind: over HTTP at 64 connections and over
 * stdio (mcp-serve) in batches of 1 and of 64. Printed: user-space instructions per request, and
 * after ÷ before. Over HTTP, the checkout (HEAD's build) and L0 (the bench's plain Fastify route,
 * serving HEAD's answer bytes) are counted too: HEAD ÷ L0 is the server work per request of issue
 * #17's CPU bound, in a counter that does not move with the neighbours.
 *
 * Why instructions: req/s and CPU time on a small shared machine move by more than a 2 % bound
 * from run to run; an instruction count does not, once nothing else varies between runs
 * (docs/perf-notes.md, "Instructions, made stable again", says how):
 * - `node --predictable --predictable-gc-schedule`: the compiler and the GC on the main thread, on
 *   a fixed schedule;
 * - a warm-up, a full GC (gc-on-signal.cjs, SIGUSR2), a second warm-up, and only then are the
 *   counters zeroed (`callgrind_control -z`); over HTTP the first warm-up is two runs, as the end of
 *   the first deoptimizes Node's HTTP code once;
 * - stdio in lock-step batches: BATCH requests in one write, the next once all are answered, so
 *   every read holds the same lines. Batches of 1 and of 64 are the bench's stdio@1 and stdio@64.
 * Each side is run REPEAT times and the lowest count is kept (stray work can only add
 * instructions). Instructions are not CPU time (caches, branches, the kernel differ): this
 * complements the req/s ratios, it does not replace them.
 *
 * `npm run bench` runs it as its `instructions` step (with `--json`) and judges issue #13's 2 % bound
 * by it in RESULTS.md. Needs valgrind (`apt-get install valgrind`). Env: INSTR_CHANGE
 * [186e539^1..186e539], INSTR_REPEAT [2], INSTR_HTTP_WARM [6000], INSTR_HTTP_COUNT [6000],
 * INSTR_STDIO_WARM [3200], INSTR_STDIO_COUNT [10240, 4000 in batches of 1]. About 45 minutes with
 * the defaults, and HEAD's HTTP runs besides when HEAD is not the change's after side.
 */
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildLikeTheBench, compileServers, loadSwc, prepareCommit, resolveCommit } from './commit-build.mjs';

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = join(BENCH, '..');
const BUILD = join(BENCH, '.build');
const require = createRequire(join(ROOT, 'package.json'));
const autocannon = require('autocannon');
/** The defaults: what a run to judge by needs at least (see `full` below). */
const DEFAULT = { repeat: 2, httpWarm: 6000, httpCount: 6000, stdioWarm: 3200, stdioCount: { 1: 4000, 64: 10240 } };
const REPEAT = Number(process.env.INSTR_REPEAT ?? DEFAULT.repeat);
const HTTP_WARM = Number(process.env.INSTR_HTTP_WARM ?? DEFAULT.httpWarm);
const HTTP_COUNT = Number(process.env.INSTR_HTTP_COUNT ?? DEFAULT.httpCount);
const STDIO_WARM = Number(process.env.INSTR_STDIO_WARM ?? DEFAULT.stdioWarm);
const STDIO_COUNT = process.env.INSTR_STDIO_COUNT === undefined ? undefined : Number(process.env.INSTR_STDIO_COUNT);
const CONNECTIONS = 64;
const NODE_FLAGS = ['--predictable', '--predictable-gc-schedule', '--expose-gc', '-r', join(BENCH, 'gc-on-signal.cjs')];
const GC_DONE = 'decorum-bench: gc done';
/** The change counted: `<before>..<after>`, as the bench's BENCH_CHANGE names one. */
const CHANGE = process.env.INSTR_CHANGE ?? '186e539^1..186e539';
const log = (message) => process.stderr.write(`${message}\n`);

/** `--json` (as `npm run bench` runs it): the rows and settings as one JSON line on stdout instead of the table. */
const JSON_OUT = process.argv.includes('--json');

if (spawnSync('callgrind_control', ['--version']).status !== 0) {
  log('instructions: valgrind is not installed (apt-get install valgrind)');
  process.exit(1);
}

buildLikeTheBench(ROOT);
const { swc, swcOptions } = await loadSwc(ROOT);
/** HEAD's answer to the counted call, which L0 serves as its own (written by HEAD's HTTP run). */
const l0Bodies = join(tmpdir(), `decorum-instructions-l0-${process.pid}.json`);
/** A side of the change: its built tree, with the bench's current servers compiled into it. */
const side = (name, rev) => {
  const tree = prepareCommit({ root: ROOT, build: BUILD, rev, log });
  return {
    name: `${name} (${tree.commit.slice(0, 10)})`,
    root: tree.dir,
    servers: compileServers({ swc, swcOptions, sources: join(BENCH, 'servers'), out: join(tree.dir, 'bench', '.build-current', 'servers') }),
  };
};
const [before, after] = CHANGE.split('..').map((rev, i) => side(i === 0 ? 'before' : 'after', rev));
/** The checkout as built (HEAD), counted over HTTP for the L0 row: its run writes its answer for L0, so L0 is counted after it. */
const head = { name: `HEAD (${resolveCommit(ROOT, 'HEAD').slice(0, 10)})`, root: ROOT, servers: join(BUILD, 'servers'), answerFile: l0Bodies };

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const PARAMS = { name: 'add_typebox', arguments: { a: 20, b: 22 }, _meta: META };

/** A node process under callgrind; `counted()` reads the instructions since the counters were last zeroed. */
function underCallgrind(args, cwd, stdin) {
  const out = join(tmpdir(), `decorum-callgrind-${process.pid}-${Date.now()}.out`);
  const child = spawn('valgrind', ['--tool=callgrind', '--smc-check=all', `--callgrind-out-file=${out}`, process.execPath, ...NODE_FLAGS, ...args], {
    cwd,
    stdio: [stdin, 'pipe', 'pipe'],
  });
  let stderr = '';
  let onStderr = () => {};
  child.stderr.on('data', (d) => {
    stderr = (stderr + d).slice(-4096);
    onStderr();
  });
  return {
    child,
    zero: () => execFileSync('callgrind_control', ['-z', String(child.pid)], { stdio: 'ignore' }),
    /** A full GC in the server (gc-on-signal.cjs); resolves once it is done. */
    fullGc: () =>
      new Promise((resolve) => {
        stderr = '';
        onStderr = () => {
          if (stderr.includes(GC_DONE)) {
            onStderr = () => {};
            resolve();
          }
        };
        child.kill('SIGUSR2');
      }),
    /** Dumps the counters (a numbered file beside `out`), stops the process, and returns the count. */
    async counted() {
      execFileSync('callgrind_control', ['-d', String(child.pid)], { stdio: 'ignore' });
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      const dumps = readdirSync(dirname(out)).filter((f) => f.startsWith(`${out.slice(dirname(out).length + 1)}.`));
      let total;
      for (const dump of dumps) {
        const file = join(dirname(out), dump);
        // Each dump holds what ran since the one before (here: since the counters were zeroed).
        total = (total ?? 0) + Number(/\n(?:summary|totals): (\d+)/.exec(readFileSync(file, 'utf8'))?.[1]);
        rmSync(file);
      }
      rmSync(out, { force: true });
      if (!Number.isFinite(total)) throw new Error('callgrind wrote no count');
      return total;
    },
  };
}

const HTTP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': PARAMS.name,
};
const HTTP_BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: PARAMS });

/** Instructions per tools/call over HTTP at 64 connections: the side's HTTP server (Decorum's, or L0). */
async function overHttp(side) {
  const server = underCallgrind(side.http ?? [join(side.servers, 'decorum-http.js')], side.root, 'ignore');
  const port = await new Promise((resolve, reject) => {
    let text = '';
    server.child.stdout.on('data', (d) => {
      text += d;
      const m = /READY (\d+)/.exec(text);
      if (m) resolve(Number(m[1]));
    });
    server.child.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
  });
  const load = (amount) =>
    new Promise((resolve, reject) =>
      autocannon(
        {
          url: `http://127.0.0.1:${port}/mcp`,
          method: 'POST',
          connections: CONNECTIONS,
          amount,
          timeout: 600,
          headers: HTTP_HEADERS,
          body: HTTP_BODY,
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      ),
    );
  if (side.answerFile) {
    const answer = await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', headers: HTTP_HEADERS, body: HTTP_BODY });
    writeFileSync(side.answerFile, JSON.stringify({ [`/mcp:${PARAMS.name}`]: await answer.text() }));
  }
  await load(HTTP_WARM);
  await load(HTTP_WARM);
  await server.fullGc();
  await load(HTTP_WARM);
  server.zero();
  const result = await load(HTTP_COUNT);
  const total = await server.counted();
  if (result.non2xx > 0 || result['2xx'] !== HTTP_COUNT) throw new Error(`${result.non2xx} of ${HTTP_COUNT} answers were not 2xx`);
  return total / HTTP_COUNT;
}

/**
 * Instructions per tools/call over stdio: mcp-serve with the bench's tools, in lock-step batches of
 * `batch` requests (one write; the next batch once all are answered).
 */
async function overStdio(side, batch) {
  const count = STDIO_COUNT ?? DEFAULT.stdioCount[batch];
  const server = underCallgrind([join(side.root, 'packages/cli/dist/bin.js'), join(side.servers, 'decorum-stdio.js')], side.root, 'pipe');
  const suffix = `,"method":"tools/call","params":${JSON.stringify(PARAMS)}}\n`;
  let id = 0;
  let answered = 0;
  let onBatch = () => {};
  const sendBatch = () =>
    new Promise((resolve) => {
      answered = 0;
      onBatch = resolve;
      let text = '';
      for (let i = 0; i < batch; i++) text += `{"jsonrpc":"2.0","id":${++id}${suffix}`;
      server.child.stdin.write(text);
    });
  server.child.stdout.on('data', (chunk) => {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) answered++;
    if (answered >= batch) onBatch();
  });
  const exited = new Promise((_, reject) => server.child.once('exit', (code) => reject(new Error(`mcp-serve exited (${code})`))));
  const run = async (requests) => {
    for (let done = 0; done < requests; done += batch) await Promise.race([sendBatch(), exited]);
  };
  await run(STDIO_WARM);
  await server.fullGc();
  await run(STDIO_WARM);
  server.zero();
  await run(count);
  return (await server.counted()) / Math.ceil(count / batch) / batch;
}

/** L0, over HTTP only: after HEAD, whose answer it serves. */
const l0 = { name: 'L0', root: ROOT, http: [join(BUILD, 'servers', 'l0-http.js'), l0Bodies] };

/** Each side's count per run, REPEAT runs. */
async function countRuns(transport, side, measure) {
  const runs = [];
  for (let r = 0; r < REPEAT; r++) {
    log(`instructions: ${transport}, ${side.name}, run ${r + 1} of ${REPEAT}`);
    runs.push(await measure(side));
  }
  return runs;
}

const rows = [];
for (const [transport, measure] of [
  [`HTTP, ${CONNECTIONS} connections`, overHttp],
  ['stdio (mcp-serve), batches of 1', (side) => overStdio(side, 1)],
  ['stdio (mcp-serve), batches of 64', (side) => overStdio(side, 64)],
]) {
  const row = { transport, before: await countRuns(transport, before, measure), after: await countRuns(transport, after, measure) };
  row.ratio = Math.min(...row.after) / Math.min(...row.before);
  if (measure === overHttp) {
    row.head = await countRuns(transport, head, measure);
    row.l0 = await countRuns(transport, l0, measure);
    row.overL0 = Math.min(...row.head) / Math.min(...row.l0);
    rmSync(l0Bodies, { force: true });
  }
  rows.push(row);
}

const n = (x) => Math.round(x).toLocaleString('en-US');
const md = [
  `# Instructions per tools/call: ${CHANGE} (${before.name} → ${after.name})`,
  '',
  `${new Date().toISOString()}, node ${process.version}, ${NODE_FLAGS.slice(0, 3).join(' ')}; HTTP: ${HTTP_WARM} × 2 requests of warm-up, a full GC, ${HTTP_WARM} more, ${HTTP_COUNT} counted; stdio: ${STDIO_WARM} of warm-up, a full GC, ${STDIO_WARM} more, ${STDIO_COUNT ?? `${n(DEFAULT.stdioCount[1])} (batches of 1) or ${n(DEFAULT.stdioCount[64])} (of 64)`} counted. Each run's count, the lowest kept.`,
  '',
  '| tools/call add_typebox | before | after | after ÷ before | HEAD | L0 | HEAD ÷ L0 |',
  '| --- | --- | --- | --- | --- | --- | --- |',
  ...rows.map(
    (r) =>
      `| ${r.transport} | ${r.before.map(n).join(', ')} | ${r.after.map(n).join(', ')} | ${r.ratio.toFixed(3)} | ${r.head?.map(n).join(', ') ?? '–'} | ${r.l0?.map(n).join(', ') ?? '–'} | ${r.overL0?.toFixed(3) ?? '–'} |`,
  ),
  '',
].join('\n');
writeFileSync(join(BUILD, 'instructions.md'), md);
if (JSON_OUT) {
  // Fewer runs or requests than the defaults make a quick look, not a measurement to judge by.
  const full =
    REPEAT >= DEFAULT.repeat &&
    HTTP_WARM >= DEFAULT.httpWarm &&
    HTTP_COUNT >= DEFAULT.httpCount &&
    STDIO_WARM >= DEFAULT.stdioWarm &&
    (STDIO_COUNT === undefined || Object.values(DEFAULT.stdioCount).every((count) => STDIO_COUNT >= count));
  const settings = {
    full,
    change: CHANGE,
    sides: [before.name, after.name],
    node: process.version,
    flags: NODE_FLAGS.slice(0, 3),
    repeat: REPEAT,
    httpWarm: HTTP_WARM,
    httpCount: HTTP_COUNT,
    stdioWarm: STDIO_WARM,
    stdioCount: STDIO_COUNT,
  };
  process.stdout.write(`${JSON.stringify({ settings, rows })}\n`);
} else process.stdout.write(md);
