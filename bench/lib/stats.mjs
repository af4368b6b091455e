/** The statistics of the bench: medians, percentiles, per-round ratios and a median's interval. */

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export const median = (values) => {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
};

export const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? a / b : NaN);
/** The per-round ratios of a's metric over b's (rounds where either side has no number left out). */
export const roundRatios = (a, b, metric = 'rps') => (a?.runs ?? []).map((x, i) => ratio(x[metric], b?.runs?.[i]?.[metric])).filter(Number.isFinite);
/** Median over the rounds of a's metric (req/s by default) ÷ b's in the same round (both summaries); NaN without rounds. */
export const roundRatio = (a, b, metric = 'rps') => median(roundRatios(a, b, metric));
/**
 * A distribution-free 95 % interval of the median that `values` sample: the k-th smallest and k-th
 * largest value, k the largest with P(Binomial(n, ½) < k) ≤ 2.5 % (order statistics; no
 * assumption about the noise's shape). `undefined` under 6 values, where no such interval exists.
 */
export function medianInterval(values) {
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
