/**
 * The JSON of a number (`JSON.stringify(value)`), made without V8's number-to-string cache.
 *
 * Why: `String(n)`, `${n}` and `n.toString()` keep each string they make in a per-isolate cache
 * that lives in the old generation, until another number takes its slot. Request ids count up,
 * so every answer's id missed the cache and left its string there: referenced from the old
 * generation, it outlived the young collections that would have freed it and was promoted, and
 * made every scavenge longer. `JSON.stringify` of a number uses no cache, but costs more than
 * writing an id-sized integer's digits here (docs/perf-notes.md, "Figures behind source comments").
 */

const { fromCharCode } = String;

/** `'0'`: digits are written by their char codes. */
const ZERO = 48;

/** Integers below this are written digit by digit; larger ones (and fractions) by `JSON.stringify`. */
const DIGITS_BELOW = 100_000_000;

/** The digit of `n` (an integer from 0 to {@link DIGITS_BELOW}) at `place` (1, 10, 100, …) as its char code. */
function digit(n: number, place: number): number {
  // `| 0` truncates in 32-bit integers, which hold every such n: no double arithmetic.
  return ZERO + (((n / place) | 0) % 10);
}

/** The decimal digits of an integer from 0 to 9,999 (one string, from one `fromCharCode`). */
function upToFourDigits(n: number): string {
  if (n < 10) return fromCharCode(ZERO + n);
  if (n < 100) return fromCharCode(digit(n, 10), digit(n, 1));
  if (n < 1000) return fromCharCode(digit(n, 100), digit(n, 10), digit(n, 1));
  return fromCharCode(digit(n, 1000), digit(n, 100), digit(n, 10), digit(n, 1));
}

/**
 * `JSON.stringify(value)` for a number: its shortest round-trip digits, `null` when it is not finite
 * (NaN, ±Infinity), `0` for -0. Nothing it makes is kept anywhere.
 */
export function numberJson(value: number): string {
  if (!Number.isInteger(value) || value < 0 || value >= DIGITS_BELOW) return JSON.stringify(value);
  if (value < 10_000) return upToFourDigits(value);
  const high = (value / 10_000) | 0;
  const low = value - high * 10_000;
  // Fewer than 13 characters: V8 joins the two into one flat string, not a cons string.
  return upToFourDigits(high) + fromCharCode(digit(low, 1000), digit(low, 100), digit(low, 10), digit(low, 1));
}
