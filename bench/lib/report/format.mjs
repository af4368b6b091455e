/** How RESULTS.md writes numbers: counts, ms, ratios with their min–max, MiB, CPU cells. */
import { median, ratio, roundRatio, roundRatios } from '../stats.mjs';

export const fmt = (n, digits = 0) => (Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : '–');
export const ms = (n) => (Number.isFinite(n) ? (n < 10 ? n.toFixed(2) : n.toFixed(1)) : '–');
export const ratioCell = (a, b, metric = 'rps') => {
  const per = roundRatios(a, b, metric);
  if (per.length < 2) return fmtRatio(roundRatio(a, b, metric));
  return `${fmtRatio(median(per))} (${fmtRatio(Math.min(...per))}–${fmtRatio(Math.max(...per))})`;
};
export const fmtRatio = (r) => (Number.isFinite(r) ? (r >= 10 ? `${r.toFixed(0)}×` : r >= 1 ? `${r.toFixed(2)}×` : r.toFixed(2)) : '–');
/** Bytes (or bytes per second) in MiB. */
export const mib = (bytes) => (Number.isFinite(bytes) ? (bytes / 2 ** 20).toFixed(1) : '–');
export const pct = (r) => (Number.isFinite(r) ? `${(r * 100).toFixed(0)} %` : '–');
export const micros = (n) => fmt(n, n < 100 ? 1 : 0);
/** The three server-CPU cells of a table row: µs per answered request, its ratio to the reference target's, share of a core. */
export const cpuCells = (s, reference, isReference) =>
  `${micros(s.cpuUsPerReq)} | ${isReference ? '1.00' : ratioCell(s, reference, 'cpuUsPerReq')} | ${pct(s.cpuShare)}`;
/** A table row for a target that was not measured: its leading cells, then padding to the table's `columns`. */
export const notMeasured = (cells, columns) => `| ${cells.join(' | ')} | not measured |${' |'.repeat(columns - cells.length - 1)}`;
export const CPU_NOTE =
  "CPU µs/req is the server process's own CPU time (user + system, all threads, from /proc/<pid>/stat) during the run divided by the answers it gave; its ratio is over the reference target's in the same round (median of the per-round ratios), and server CPU is that CPU time over the run's wall time, in % of one core. The load generator shares the machine's cores, so req/s partly measures it; the CPU columns do not, and a server well under 100 % was waiting for the load generator.";

/** A cold-start statistic (median and min–max) as a cell. */
export const range = (st) => `${fmt(st.median)} (${fmt(st.min)}–${fmt(st.max)})`;
/** Median over the paired runs of a's cold-start time ÷ b's (run i of each was spawned one after the other). */
export const pairedRatio = (cold, a, b, field = 'exit') => median((cold?.cold[a]?.[field].runs ?? []).map((x, i) => ratio(x, cold.cold[b]?.[field].runs[i])));
