/**
 * The targets table of RESULTS.md: one row per target an issue set, each naming its issue, judged
 * on this run's numbers ("met" only when every measurement behind it is).
 */
import {
  CHANGE_ROUNDS,
  CONNECTIONS,
  CALIBRATION_US,
  FANOUT_LISTENERS,
  LEGACY_SESSIONS,
  LISTEN_TARGET_STREAMS,
  REDUCER_LABEL,
  ROUNDS,
  STEADY_STATE_FLAGS,
  YOUNG_GENERATION_FLAG,
  YOUNG_WORKLOADS,
  whyNotMeasured,
} from '../config.mjs';
import { CHANGE_49, CHANGE_49_BOUND, HARDENING_BOUND, HARDENING_CHANGE, SAME_CODE } from '../change.mjs';
import { PIN } from '../processes.mjs';
import { medianInterval, ratio, roundRatio, roundRatios } from '../stats.mjs';
import { fmt, fmtRatio, mib, micros, ms, pairedRatio, pct, range, ratioCell } from './format.mjs';

/**
 * The rows of the targets table, in order.
 * @returns {{ target: string, status: string, number: string }[]}
 */
export function targetRows(results) {
  const targetsMet = [];
  const get = (key, id) => results.http[key]?.[id];
  const cold = results.cold;
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
    const cr = pairedRatio(cold, 'decorum-weather', 'sdk');
    row(
      17,
      'Cold start ≤ the SDK v2 stdio server (spawn → first answer → exit, built weather example, paired runs)',
      judge(cr, 1, '<='),
      c['decorum-weather']
        ? `${fmtRatio(cr)} of the SDK: ${range(c['decorum-weather'].exit)} vs ${range(c.sdk?.exit ?? { median: NaN, min: NaN, max: NaN })} ms; the same bench tools as the SDK: ${fmtRatio(pairedRatio(cold, 'decorum-bench', 'sdk'))}`
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
    // A change's cost (the change step), one row per range: the per-round ratios after ÷ before of
    // every workload, judged against `bound` on `metric` when it has one.
    const changeRow = (issue, range, title, { metric = 'rps', bound } = {}) => {
      const ch = results.changes?.find((c) => c.range === range);
      if (!ch) {
        row(
          issue,
          title,
          'not measured',
          results.changes ? `not measured in this run (BENCH_CHANGE without ${range}, or see "Not measured")` : whyNotMeasured('change', false),
        );
        return;
      }
      const keys = [...Object.keys(ch.http), ...Object.keys(ch.stdio)];
      const sides = (key) => ch.http[key] ?? ch.stdio[key];
      const perKey = keys.map((key) => roundRatios(sides(key)?.after, sides(key)?.before, metric));
      const intervals = perKey.map(medianInterval);
      // Higher is better for req/s, lower for CPU per call.
      const holds = metric === 'rps' ? (r) => r >= bound : (r) => r <= bound;
      // A 2 % bound is no wider than the noise of one round, so the verdict rests on each
      // median's 95 % interval over the rounds: shown to hold, shown not to, or neither.
      const verdict = () => {
        if (perKey.some((ratios) => ratios.length === 0)) return 'not measured';
        if (intervals.some((interval) => interval === undefined))
          return `**not shown** (${CHANGE_ROUNDS} rounds give no 95 % interval of a median; BENCH_CHANGE_ROUNDS ≥ 6)`;
        if (intervals.some((interval) => !interval.some(holds))) return '**not met**';
        if (intervals.every((interval) => interval.every(holds))) return '**met**';
        return "**not shown** (a median's 95 % interval reaches past the bound)";
      };
      const judged = bound !== undefined;
      const cell = (key, i) => {
        const interval = judged && intervals[i] ? `, median's 95 % interval ${intervals[i].map((r) => r.toFixed(2)).join('–')}` : '';
        const cpu = metric === 'rps' ? '' : 'CPU ';
        return `${key} ${cpu}${ratioCell(sides(key)?.after, sides(key)?.before, metric)}${interval}`;
      };
      row(issue, title, !keys.length ? 'not measured' : judged ? verdict() : 'measured', keys.map(cell).join('; ') || 'not measured: see "Not measured"');
    };
    // Issue #49: the re-hang of the core costs at most 2 % CPU per call.
    changeRow(49, CHANGE_49, `CPU per call within 2 % of the commit before the issue (${CHANGE_49}: CPU µs per call after ÷ before ≤ ${CHANGE_49_BOUND})`, {
      metric: 'cpuUsPerReq',
      bound: CHANGE_49_BOUND,
    });
    changeRow(49, SAME_CODE, `The change step checked against itself: the same code in two trees (${SAME_CODE}, CPU per call); 1.00 is no bias`, {
      metric: 'cpuUsPerReq',
    });
    // Issue #13: the hardening's cost as it landed, counted in instructions (instructions.mjs), where
    // neighbours do not move the count, and by req/s.
    const instr = results.instructions;
    const instructionBound = 1 / HARDENING_BOUND;
    const countsHardening = instr?.settings.change === HARDENING_CHANGE;
    row(
      13,
      `The hardening costs ≤ 2 % of tools/call throughput, counted in instructions per call as it landed (${HARDENING_CHANGE}: after ÷ before ≤ ${instructionBound.toFixed(3)}, HTTP and stdio)`,
      !instr
        ? 'not measured'
        : !countsHardening
          ? `measured, not judged (INSTR_CHANGE=${instr.settings.change})`
          : !instr.settings.full
            ? 'measured, not judged (INSTR_* set below the defaults)'
            : instr.rows.every((r) => r.ratio <= instructionBound)
              ? '**met**'
              : '**not met**',
      instr ? instr.rows.map((r) => `${r.transport} ${r.ratio.toFixed(3)}`).join('; ') : whyNotMeasured('instructions', results.unavailable.instructions),
    );
    changeRow(13, HARDENING_CHANGE, `The same by req/s (${HARDENING_CHANGE}, its merge ÷ its first parent; the bound is within one round's noise)`, {
      bound: HARDENING_BOUND,
    });
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
    // Issue #50: Tasks (no bound was set: measured and reported).
    const tk = results.tasks;
    row(
      50,
      'Tasks: heap per stored task (memory store, 10,000 held); Redis task store create/get p50',
      tk ? 'measured' : 'not measured',
      tk
        ? `${(tk.store.heapPerTask / 1024).toFixed(2)} KiB per task; Redis create ${ms(tk.redis.create.p50)} ms, get ${ms(tk.redis.get.p50)} ms${tk.round.error ? '' : `; a task round ${(tk.round.task.p50 / tk.round.plain.p50).toFixed(2)}× a plain call`}`
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
  return targetsMet;
}
