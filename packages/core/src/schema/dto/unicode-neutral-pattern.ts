/**
 * Whether a regular expression accepts no more strings with the `u` flag than without it.
 *
 * class-validator's `@Matches(/re/)` runs `re` as written (no flags), while JSON Schema validators
 * compile `pattern` with `u` (TypeBox does). The two differ where an atom can consume a surrogate:
 * `^.$` rejects "😀" without `u` (two code units) and accepts it with `u` (one code point). When
 * every atom matches only non-surrogate characters, a `u` match is also a match without `u` — its
 * characters are single code units either way, and the positions it may start from are a subset.
 */

/** Escapes whose meaning or reach differs with `u`: `\u` (surrogates, `\u{…}`), `\p`/`\P`, `\c`, negated classes. */
const UNSAFE_ESCAPES = new Set(['u', 'U', 'p', 'P', 'c', 'D', 'S', 'W']);

/**
 * True when `source` (a RegExp source without flags) provably accepts no string with the `u` flag
 * that it rejects without: printable ASCII only, no `.`, no negated class `[^…]`, none of the
 * escapes above, no inline modifiers, and valid in both modes. Conservative: `false` means "not proven", not "differs".
 */
export function isUnicodeNeutralPattern(source: string): boolean {
  if (!/^[\x20-\x7e]*$/.test(source)) return false;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\') {
      const next = source[i + 1];
      if (next === undefined || UNSAFE_ESCAPES.has(next)) return false;
      i++;
    } else if (inClass) {
      if (ch === ']') inClass = false;
    } else if (ch === '[') {
      if (source[i + 1] === '^') return false;
      inClass = true;
    } else if (ch === '.') {
      return false;
    } else if (ch === '(' && source[i + 1] === '?' && !/[:=!<]/.test(source[i + 2] ?? '')) {
      return false; // inline modifiers, `(?i:…)`: case folding differs with `u`
    }
  }
  try {
    new RegExp(source);
    new RegExp(source, 'u');
  } catch {
    return false;
  }
  return true;
}
