/**
 * The targets: the servers a run measures (L0, the JSON floor, the SDK, Decorum and its variants),
 * started, checked once per workload and recorded as unavailable when they fail; and the child
 * processes of the steps that measure one thing each (listen, sessions, fan-out, cold start).
 */
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BENCH, CALIBRATION_US, CHILD_TIMEOUT_MS, REDUCER_LABEL, ROOT, STEADY_STATE_FLAGS, YOUNG_GENERATION_FLAG, YOUNG_WORKLOADS, log } from './config.mjs';
import { ALL_CORES, ServerProcess } from './processes.mjs';
import { readAnswer } from './workloads/answers.mjs';
import { verifyHttp } from './workloads/http.mjs';
import { probe } from './workloads/stdio.mjs';

/**
 * The targets measured on some workloads only, and which: the pipeline variant
 * (decorum-pipeline-http.ts) on the modern tools/call workloads, the calibration target on one,
 * Decorum and L0 with YOUNG_GENERATION_FLAG on a call and a list, Decorum with V8's memory reducer
 * on (without STEADY_STATE_FLAGS) on one call.
 * A workload such a target does not serve is not run on it and gets no row.
 */
export const PARTIAL_TARGETS = {
  pipeline: (w) => w.id.startsWith('call-') && !w.legacy,
  l0busy: (w) => w.id === 'call-typebox',
  l0young: (w) => YOUNG_WORKLOADS.includes(w.id),
  young: (w) => YOUNG_WORKLOADS.includes(w.id),
  reducer: (w) => w.id === 'call-typebox',
};
/** Whether target `t` is run on workload `w` (its `serves`, when it has one). */
export const serves = (t, w) => t.serves?.(w) ?? true;

/**
 * Starts the run's processes and keeps them, so that `stopAll` ends every one; a target that does
 * not come up is recorded in `unavailable` (RESULTS.md's "Not measured") and left out.
 */
export class Launcher {
  processes = [];

  /**
   * @param {{ servers: string, unavailable: Record<string, string> }} options the folder of the
   *   compiled bench servers, and where failures are recorded
   */
  constructor({ servers, unavailable }) {
    this.servers = servers;
    this.unavailable = unavailable;
  }

  /** A compiled bench server's path, relative to the checkout. */
  server(file) {
    return relative(ROOT, join(this.servers, file));
  }

  start(name, args, options) {
    const p = new ServerProcess(name, args, options);
    this.processes.push(p);
    return p;
  }

  /**
   * Starts an HTTP bench server with STEADY_STATE_FLAGS and `nodeFlags` (without the first when
   * `memoryReducer`); undefined (and recorded as unavailable) when it does not come up.
   */
  async startHttp(id, label, file, args = [], nodeFlags = [], { memoryReducer = false } = {}) {
    const flags = memoryReducer ? nodeFlags : [...STEADY_STATE_FLAGS, ...nodeFlags];
    const p = this.start(label, [...flags, file.startsWith('/') ? file : this.server(file), ...args]);
    try {
      const port = await p.ready();
      return { id, label, port, proc: p, broken: {}, serves: PARTIAL_TARGETS[id] };
    } catch (error) {
      this.unavailable[id] = String(error.message).trim();
      log(`bench: ${label} unavailable: ${error.message.split('\n')[0]}`);
      await p.stop();
      return undefined;
    }
  }

  /** Starts a stdio bench server and probes it; undefined (and recorded as unavailable) when it fails. */
  async startStdio(id, label, args, options) {
    const p = this.start(label, [...STEADY_STATE_FLAGS, ...args], options);
    try {
      return { id, label, proc: p, line: await probe(p) };
    } catch (error) {
      this.unavailable[`stdio:${id}`] = String(error.message).trim();
      log(`bench: stdio ${label} unavailable: ${error.message.split('\n')[0]}`);
      await p.stop();
      return undefined;
    }
  }

  /**
   * Runs a bench script that prints its result as one line of JSON (--json) in a child process of
   * its own (so it can raise its own limits, and gets every core, as a host would give it); the
   * parsed result, or undefined with the reason recorded under `unavailable[id]`.
   */
  async jsonChild(id, script, { env = {}, args = [], timeoutMs = CHILD_TIMEOUT_MS } = {}) {
    const p = this.start(`${script} ${args.join(' ')}`.trim(), [relative(ROOT, join(BENCH, script)), ...args, '--json'], { cores: ALL_CORES, env });
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
    this.unavailable[id] = `${script} ${args.join(' ')}: ${why}\n${p.stderr.trim().slice(-3000)}`.trim();
    log(`bench: ${id} not measured: ${why}`);
    return undefined;
  }

  async stopAll() {
    for (const p of this.processes) await p.stop();
  }
}

/**
 * Starts the HTTP targets the selected workloads need, checks each on each workload it serves
 * (a failed check marks the workload `broken` for that target), and starts L0 on the exact bytes
 * Decorum answered. Returns them in the order the rounds take them.
 * @param {Launcher} launcher
 * @param {object[]} workloads the selected HTTP workloads (workloads/http.mjs); each gets `l0From` and `answerBytes`
 * @param {string} tmp a folder for L0's answer file
 */
export async function startHttpTargets(launcher, workloads, tmp) {
  const decorum = await launcher.startHttp('decorum', 'Decorum (mcpPlugin)', 'decorum-http.js');
  // Decorum with three middlewares and tracing on (no SDK), beside plain Decorum: tools/call only.
  const pipeline = workloads.some(PARTIAL_TARGETS.pipeline)
    ? await launcher.startHttp('pipeline', 'Decorum + 3 middlewares + tracing (no SDK)', 'decorum-pipeline-http.js')
    : undefined;
  const young = workloads.some(PARTIAL_TARGETS.young)
    ? await launcher.startHttp('young', `Decorum (mcpPlugin), node ${YOUNG_GENERATION_FLAG}`, 'decorum-http.js', [], [YOUNG_GENERATION_FLAG])
    : undefined;
  const reducer = workloads.some(PARTIAL_TARGETS.reducer)
    ? await launcher.startHttp('reducer', REDUCER_LABEL, 'decorum-http.js', [], [], { memoryReducer: true })
    : undefined;
  const sdk = await launcher.startHttp('sdk', 'SDK v2 (createMcpHandler + toNodeHandler, createMcpFastifyApp)', 'sdk-http.js');
  // The SDK's stateless handler has no legacy sessions to measure.
  if (sdk) sdk.serves = (w) => !w.legacy;

  // Verify every target answers each workload once; capture the bytes L0 will serve.
  const bodies = {};
  const reference = {};
  for (const t of [decorum, pipeline, young, reducer, sdk].filter(Boolean)) {
    for (const w of workloads.filter((w) => serves(t, w))) {
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
  for (const w of workloads) {
    // L0 answers the request's own id? No: a fixed result of the same bytes (id 1, as sent).
    const ref = reference[w.id] ?? { text: JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} }), from: 'synthetic' };
    bodies[w.tool ? `${w.path}:${w.tool}` : w.path] = ref.text;
    w.l0From = ref.from;
    w.answerBytes = Buffer.byteLength(ref.text);
  }
  const bodiesFile = join(tmp, 'l0-bodies.json');
  writeFileSync(bodiesFile, JSON.stringify(bodies));
  const l0 = await launcher.startHttp('l0', 'L0 (plain Fastify route)', 'l0-http.js', [bodiesFile]);
  const calibration = workloads.some(PARTIAL_TARGETS.l0busy)
    ? await launcher.startHttp('l0busy', `L0 + ${CALIBRATION_US} µs of CPU work per request (calibration)`, 'l0-http.js', [
        bodiesFile,
        `--busy-us=${CALIBRATION_US}`,
      ])
    : undefined;
  const l0young = workloads.some(PARTIAL_TARGETS.l0young)
    ? await launcher.startHttp('l0young', `L0 (plain Fastify route), node ${YOUNG_GENERATION_FLAG}`, 'l0-http.js', [bodiesFile], [YOUNG_GENERATION_FLAG])
    : undefined;
  for (const t of [l0, calibration, l0young].filter(Boolean)) {
    for (const w of workloads.filter((w) => serves(t, w))) {
      const v = await verifyHttp(t.port, w);
      if (v.error) t.broken[w.id] = v.error;
    }
  }
  return [l0, calibration, l0young, decorum, pipeline, young, reducer, sdk].filter(Boolean);
}

/**
 * Starts the stdio targets: Decorum under mcp-serve, the SDK, the bare line loop (answering
 * Decorum's bytes) and the JSON floor. Returns them in the order the rounds take them.
 * @param {Launcher} launcher
 * @param {string} tmp a folder for the bare loop's answer line
 */
export async function startStdioTargets(launcher, tmp) {
  const decorum = await launcher.startStdio('decorum', 'Decorum (mcp-serve)', ['packages/cli/dist/bin.js', launcher.server('decorum-stdio.js')]);
  const sdk = await launcher.startStdio('sdk', 'SDK v2 (serveStdio)', [launcher.server('sdk-stdio.js')]);
  const lineFile = join(tmp, 'echo-line.txt');
  writeFileSync(lineFile, (decorum ?? sdk)?.line ?? '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"42"}]}}');
  const echo = await launcher.startStdio('echo', 'bare line loop', [launcher.server('echo-stdio.js'), lineFile]);
  const floor = await launcher.startStdio('floor', 'JSON floor (parse + stringify only)', [launcher.server('json-floor-stdio.js')]);
  return [echo, floor, decorum, sdk].filter(Boolean);
}
