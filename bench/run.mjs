#!/usr/bin/env node
/**
 * `npm run bench`: Decorum against the limit (L0: plain Fastify / a bare stdio line loop) and the
 * official SDK v2, in one run, alternating targets within each round, medians of several rounds;
 * writes bench/RESULTS.md. bench/README.md says how to run it and what each number means; the
 * environment knobs are read in lib/config.mjs. The parts: lib/workloads/ (what is sent),
 * lib/targets.mjs (what is measured), lib/measure.mjs and lib/load.mjs (how), lib/change.mjs (a
 * change's cost), lib/report/ (RESULTS.md).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { compileServers, loadSwc } from './commit-build.mjs';
import { CHANGES, measureChange } from './lib/change.mjs';
import { BENCH, BUILD, FANOUT_LISTENERS, INSTRUCTIONS_TIMEOUT_MS, LEGACY_SESSIONS, LISTEN_STREAMS, OUT, ROOT, log, require, selected } from './lib/config.mjs';
import { httpRounds, stdioRounds } from './lib/measure.mjs';
import { pinLoadGenerator } from './lib/processes.mjs';
import { fmt, mib, ms } from './lib/report/format.mjs';
import { resultsMarkdown } from './lib/report/results-md.mjs';
import { Launcher, startHttpTargets, startStdioTargets } from './lib/targets.mjs';
import { HTTP_WORKLOADS } from './lib/workloads/http.mjs';

/** Builds Decorum (incremental); a failed build is reported, and the packages' existing dist/ measured. */
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

/** Steps that need a program from outside npm, and how to install it. */
const SYSTEM_NEEDS = [
  { id: 'fanout', command: 'redis-server', install: 'apt-get install redis-server; npm test installs it when run as root' },
  { id: 'tasks', command: 'redis-server', install: 'apt-get install redis-server; npm test installs it when run as root' },
  { id: 'instructions', command: 'callgrind_control', install: 'apt-get install valgrind' },
];

async function main() {
  const startedAt = new Date();
  pinLoadGenerator();
  // Said at the start, not when the step fails an hour into the run.
  for (const { id, command, install } of SYSTEM_NEEDS) {
    if (selected(id) && spawnSync(command, ['--version'], { stdio: 'ignore' }).status !== 0) {
      log(`bench: ${command} is not installed, so the ${id} step will fail (${install})`);
    }
  }
  const build = buildDecorum();
  // The bench servers, compiled with swc as mcp-serve compiles users' code (decorator metadata kept).
  const swc = await loadSwc(ROOT);
  const sources = join(BENCH, 'servers');
  const servers = compileServers({ ...swc, sources, out: join(BUILD, 'servers') });
  const tmp = join(BUILD, 'tmp');
  mkdirSync(tmp, { recursive: true });

  const results = { http: {}, stdio: {}, rss: {}, listen: {}, fanout: undefined, tasks: undefined, sessions: undefined, change: undefined, unavailable: {} };
  const launcher = new Launcher({ servers, unavailable: results.unavailable });
  const httpSelected = HTTP_WORKLOADS.filter((w) => selected(w.id));

  try {
    // ---- HTTP -----------------------------------------------------------------------------
    if (httpSelected.length > 0) {
      const ordered = await startHttpTargets(launcher, httpSelected, tmp);
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
    if (selected('stdio')) {
      const ordered = await startStdioTargets(launcher, tmp);
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
        const r = await launcher.jsonChild(`listen:${id}`, 'listen-memory.mjs', { args: [id], env: { LISTEN_STREAMS: String(LISTEN_STREAMS) } });
        if (r) {
          results.listen[id] = r;
          log(`bench: ${id}: ${mib(r.open.rss)} MiB RSS with the streams open, ${mib(r.baseline.rss)} MiB before`);
        }
      }
    }

    // ---- idle legacy (2025-11-25) HTTP sessions (bench/legacy-session-memory.mjs) -------------
    if (selected('sessions')) {
      log(`bench: ${fmt(LEGACY_SESSIONS)} idle legacy HTTP sessions`);
      results.sessions = await launcher.jsonChild('sessions', 'legacy-session-memory.mjs', { env: { LEGACY_SESSIONS: String(LEGACY_SESSIONS) } });
    }

    // ---- fan-out of one change over two instances on a Redis bus (bench/fanout.mjs) ----------
    if (selected('fanout')) {
      log(`bench: fan-out of one change to ${fmt(FANOUT_LISTENERS)} listeners over two instances (Redis bus)`);
      results.fanout = await launcher.jsonChild('fanout', 'fanout.mjs', { env: { FANOUT_LISTENERS: String(FANOUT_LISTENERS) } });
      if (results.fanout) log(`bench: fan-out: all ${fmt(FANOUT_LISTENERS)} delivered in ${ms(results.fanout.median.allMs)} ms (median)`);
    }

    // ---- Tasks: a round against a plain call, heap per stored task, the Redis store (bench/tasks.mjs)
    if (selected('tasks')) {
      log('bench: tasks: a round against a plain call, heap per stored task, the Redis task store (bench/tasks.mjs)');
      results.tasks = await launcher.jsonChild('tasks', 'tasks.mjs');
    }

    // ---- cold start, idle RSS, import costs (stdio) ------------------------------------------
    if (selected('cold')) {
      log('bench: cold start, idle RSS and import costs (bench/cold-start.mjs)');
      results.cold = await launcher.jsonChild('cold', 'cold-start.mjs');
      for (const [id, error] of Object.entries(results.cold?.errors ?? {})) results.unavailable[`cold:${id}`] = error;
    }

    // ---- the hardening's cost in instructions (bench/instructions.mjs, valgrind) --------------
    // Last of the measurements (it takes longest) but for `change`; it builds its own second tree.
    if (selected('instructions')) {
      log("bench: the hardening's cost in instructions (bench/instructions.mjs, ~45 min)");
      results.instructions = await launcher.jsonChild('instructions', 'instructions.mjs', { timeoutMs: INSTRUCTIONS_TIMEOUT_MS });
    }

    // ---- a change's cost: Decorum at two commits, same tools, same run (bench/commit-build.mjs) --
    if (selected('change')) {
      results.changes = [];
      for (const range of CHANGES) {
        const measured = await measureChange(launcher, range, { sources, swc });
        if (measured.error) {
          results.unavailable[`change ${range}`] = measured.error;
          log(`bench: the cost of ${range} not measured: ${measured.error.split('\n')[0]}`);
        } else results.changes.push(measured);
      }
    }
  } finally {
    await launcher.stopAll();
  }

  const finishedAt = new Date();
  const md = resultsMarkdown({ startedAt, finishedAt, build, results });
  writeFileSync(OUT, md);
  log(`bench: wrote ${relative(ROOT, OUT)} (${((finishedAt - startedAt) / 1000).toFixed(0)} s)`);
  process.stdout.write(md);
}

main().catch((error) => {
  log(`bench: failed: ${error?.stack ?? error}`);
  process.exit(1);
});
