/**
 * One pattern runs at most once per value per validation on the DTO fast path. The fast path's
 * compiled check tests `@Matches` patterns, and a value it does not accept goes to class-validator,
 * which would test them again (and once more per item, to point at the failing one) — several
 * times the cost of a slow pattern for one request. So, at start-up, each `@Matches` record of a
 * fast-path DTO and the compiled check share one {@link OncePerValidation} (same source, no flags:
 * `exact-schema.ts` only lets such patterns onto the fast path), which remembers its results.
 *
 * A non-global pattern's result depends on its input only, so a remembered result is always right;
 * what is bounded is memory: the results are dropped when the next validation begins
 * ({@link beginValidation}), and past {@link MAX_REMEMBERED} values. A validation needs no
 * allocation for the first value of each pattern; a second one (an `each: true` array) opens a map.
 */
import type { ValidationMetadata } from './constraints.js';

/** Values remembered per pattern beyond the first (an `each: true` array of many items). */
const MAX_REMEMBERED = 256;
let epoch = 0;

/** A RegExp that remembers its results until the next validation begins. */
export class OncePerValidation extends RegExp {
  private seenIn = -1;
  private lastInput: string | undefined;
  private lastResult: RegExpExecArray | null = null;
  private more: Map<string, RegExpExecArray | null> | undefined;

  override exec(input: string): RegExpExecArray | null {
    if (this.seenIn !== epoch) {
      this.seenIn = epoch;
      this.more = undefined;
      this.lastInput = input;
      return (this.lastResult = super.exec(input));
    }
    if (input === this.lastInput) return this.lastResult;
    const known = this.more?.get(input);
    if (known !== undefined) return known;
    const result = super.exec(input);
    if (this.more === undefined || this.more.size >= MAX_REMEMBERED) this.more = new Map();
    this.more.set(input, result);
    return result;
  }
}

/** A new validation begins: what the patterns remember of the previous one is dropped. */
export function beginValidation(): void {
  epoch++;
}

/**
 * Makes the `@Matches` records of a DTO tree and the compiled check's schema share one
 * {@link OncePerValidation} per pattern source. Returns the schema to compile (a copy, with those
 * patterns as RegExp objects, which TypeBox tests as given) — or the schema itself when no record
 * has a pattern.
 */
export function sharePatterns(schema: unknown, matchesRecords: readonly ValidationMetadata[]): unknown {
  if (matchesRecords.length === 0) return schema;
  const bySource = new Map<string, OncePerValidation>();
  for (const meta of matchesRecords) {
    const [pattern] = meta.constraints;
    const source = pattern instanceof RegExp ? pattern.source : String(pattern);
    let shared = bySource.get(source);
    if (!shared) bySource.set(source, (shared = new OncePerValidation(source)));
    meta.constraints[0] = shared;
  }
  const swap = (node: unknown): unknown => {
    if (typeof node !== 'object' || node === null) return node;
    if (Array.isArray(node)) return node.map(swap);
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) out[key] = key === 'pattern' && typeof value === 'string' ? (bySource.get(value) ?? value) : swap(value);
    return out;
  };
  return swap(schema);
}
