/**
 * The measurement: rounds of every target on every workload, each target in two mirrored halves,
 * with the server's own CPU time read around each; summaries are medians of the rounds.
 */
import { CONNECTIONS, DURATION, IN_FLIGHT, ROUNDS, WARMUP, log } from './config.mjs';
import { runAutocannon, runStdio } from './load.mjs';
import { CLOCK_TICKS } from './processes.mjs';
import { median, percentile } from './stats.mjs';
import { serves } from './targets.mjs';
import { stdioCallLine } from './workloads/stdio.mjs';
/**
 * Runs one measurement of a server process and adds the server's own cost to its result: the CPU
 * seconds it used during the run (mergeRuns makes µs per answered request and the share of a core).
 * Unlike req/s, the CPU time per request hardly depends on how much of the machine the load
 * generator takes. Returns once the server is idle again (`untilIdle`), so that the next
 * measurement does not run in its wake.
 */
export async function withServerCpu(proc, measurement) {
  const before = proc.cpuSeconds();
  const r = await measurement();
  const cpu = proc.cpuSeconds() - before;
  await untilIdle(proc);
  return { ...r, cpuSeconds: cpu };
}

/** Window and bound of `untilIdle`: idle is at most one clock tick of CPU in a window. */
export const IDLE_WINDOW_MS = 100;
export const IDLE_WAIT_LIMIT_MS = 10_000;

/**
 * Waits until a server that has just been measured is idle; logs a wait of more than three windows.
 * An overloaded server goes on working after its load stops, on the core the next target runs on
 * (docs/perf-notes.md, "How it works").
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
 * judged by it ÷ Decorum).
 */
const MIDDLE = ['l0', 'floor', 'decorum', 'pipeline'];

/**
 * One round's measurements of `targets` (`measure(t, seconds)`), each target in two halves of
 * DURATION / 2 that are merged into its run: the targets one after the other, then the same in
 * reverse (A B C | C B A), with the MIDDLE targets in the middle, back to back.
 *
 * Mirrored halves put every target's measurement around the round's middle, so a drift in the
 * machine's speed weighs on all alike and the pairs judged sit closest (docs/perf-notes.md,
 * "Mirrored halves, and V8's memory reducer").
 */
export async function measureRound(targets, measure, onRun) {
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
export class Rounds {
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
export const httpCombos = (workloads) => CONNECTIONS.flatMap((connections) => workloads.map((w) => ({ w, connections, key: `${w.id}@${connections}` })));
const liveFor = (targets, w) => targets.filter((t) => !t.broken[w.id] && serves(t, w));

export async function warmHttp(targets, combos, seconds) {
  log(`bench: HTTP warm-up (${targets.map((t) => t.id).join(', ')})`);
  for (const { w, connections } of combos) for (const t of liveFor(targets, w)) await runAutocannon(t.port, w, connections, seconds);
}

/** One HTTP round: every workload on every target, in mirrored halves (measureRound). */
export async function httpRound(targets, combos, round, rounds, of = ROUNDS) {
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
export async function httpRounds(targets, workloads) {
  const combos = httpCombos(workloads);
  const rounds = new Rounds();
  await warmHttp(targets, combos, WARMUP);
  for (let round = 1; round <= ROUNDS; round++) await httpRound(targets, combos, round, rounds);
  return rounds.summaries();
}

export async function warmStdio(targets, seconds, inFlights = IN_FLIGHT) {
  log(`bench: stdio warm-up (${targets.map((t) => t.id).join(', ')})`);
  for (const inFlight of inFlights) for (const t of targets) await runStdio(t.proc, stdioCallLine, inFlight, seconds);
}

/** One stdio round: every in-flight count on every target, in mirrored halves (measureRound). */
export async function stdioRound(targets, round, rounds, of = ROUNDS, inFlights = IN_FLIGHT) {
  for (const inFlight of inFlights) {
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
export async function stdioRounds(targets) {
  const rounds = new Rounds();
  await warmStdio(targets, WARMUP);
  for (let round = 1; round <= ROUNDS; round++) await stdioRound(targets, round, rounds);
  return rounds.summaries();
}
