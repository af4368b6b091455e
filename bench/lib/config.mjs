/**
 * The bench's settings: its folders, the environment knobs (bench/README.md lists them) and the
 * constants every step shares. Read once, at start-up.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH = join(dirname(fileURLToPath(import.meta.url)), '..');
export const ROOT = join(BENCH, '..');
export const BUILD = join(BENCH, '.build');
export const require = createRequire(join(ROOT, 'package.json'));

// Rounds of 1.5 s, twelve of them: shorter, closer pairs make the median of per-round ratios
// steadier on a shared machine (docs/perf-notes.md, "A change's cost" and "Mirrored halves").
export const DURATION = Number(process.env.BENCH_DURATION ?? 1.5);
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 12);
/** Rounds of the `change` step, each with a fresh pair of processes (see change.mjs). */
export const CHANGE_ROUNDS = Number(process.env.BENCH_CHANGE_ROUNDS ?? 12);
/** Seconds of load per target before the first round: enough for the JIT (docs/perf-notes.md). */
export const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
/** Warm-up of each fresh process the `change` step starts, per workload and load. */
export const CHANGE_WARMUP = Number(process.env.BENCH_CHANGE_WARMUP ?? 1);
/** A comma-separated environment variable as a list of its non-empty items. */
const envList = (name) =>
  (process.env[name] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const ONLY = envList('BENCH_ONLY');
const SKIP = envList('BENCH_SKIP');
export const OUT = process.env.BENCH_OUT ?? join(BENCH, 'RESULTS.md');
export const LISTEN_STREAMS = Number(process.env.BENCH_LISTEN_STREAMS ?? 10_000);
/** The stream count issue #8's memory target is about. */
export const LISTEN_TARGET_STREAMS = 10_000;
/** The longest a measuring child (listen, sessions, fan-out, cold start) may take. */
export const CHILD_TIMEOUT_MS = 5 * 60_000;
/** The longest bench/instructions.mjs may take (~45 min with its defaults). */
export const INSTRUCTIONS_TIMEOUT_MS = 120 * 60_000;
export const LEGACY_SESSIONS = Number(process.env.BENCH_LEGACY_SESSIONS ?? 10_000);
export const FANOUT_LISTENERS = Number(process.env.BENCH_FANOUT_LISTENERS ?? 1000);
export const PROTOCOL = '2026-07-28';
export const CONNECTIONS = [1, 64];
export const IN_FLIGHT = [1, 64];

export const log = (...args) => process.stderr.write(`${args.join(' ')}\n`);
// `list` selects list-1, list-50 and list-500 but not `listen`.
const names = (list, id) => list.some((o) => id === o || id.startsWith(`${o}-`));
/** Whether step `id` runs: BENCH_ONLY names it (or is unset) and BENCH_SKIP does not. */
export const selected = (id) => (ONLY.length === 0 || names(ONLY, id)) && !names(SKIP, id);
/** Why step `id` has no numbers in RESULTS.md: it failed (listed under "Not measured"), or BENCH_ONLY / BENCH_SKIP left it out. */
export const whyNotMeasured = (id, failed) =>
  failed ? 'not measured: see "Not measured"' : `not measured in this run (BENCH_ONLY or BENCH_SKIP left out \`${id}\`)`;
/** The same as a sentence of its own, for a section. */
export const notMeasuredSentence = (id, failed) => `N${whyNotMeasured(id, failed).slice(1)}.`;
/**
 * The calibration target (l0busy): L0 that first keeps the CPU busy for CALIBRATION_US per request.
 * It shows what a few µs of a server's own work cost against L0 on this machine.
 */
export const CALIBRATION_US = 5;
/**
 * The Node setting README.md's "Tuning Node for an HTTP server" recommends: V8's young generation
 * at 16 MiB from the start. The `young` targets are Decorum and L0 started with it, beside the plain ones.
 */
export const YOUNG_GENERATION_FLAG = '--min-semi-space-size=16';
/** The workloads the `young` targets run: a call and a list. */
export const YOUNG_WORKLOADS = ['call-typebox', 'list-50'];
/**
 * The flags every throughput server starts with: V8's memory reducer off, whose idle-time full
 * collection throws away the request path's optimized code in some rounds and not others
 * (docs/perf-notes.md, "`--no-memory-reducer` for every throughput server"). The `reducer`
 * target keeps it in view: Decorum started without the flag.
 */
export const STEADY_STATE_FLAGS = ['--no-memory-reducer'];
export const REDUCER_LABEL = "Decorum (mcpPlugin), V8's memory reducer on (node's default)";
