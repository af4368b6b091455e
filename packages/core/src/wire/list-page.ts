import { RawJson } from './raw-json.js';
import type { CacheHints, JsonObject } from '../protocol/types.js';
import type { ModernCodec } from '../era/modern-codec.js';

/**
 * One page of a list (`tools/list`, …), made when the registry is built: its members as both eras
 * share them (the items and `nextCursor`) and its cache hints. It is the 2026-07-28 page's JSON,
 * finished by the modern codec once, here (its cache hints go only there); a legacy codec makes its revision's page from
 * `members`, once per page and revision (era/legacy-results.ts).
 */
export class ListPage extends RawJson {
  constructor(
    /** The era-neutral result; shared by every request: read, never changed. */
    readonly members: Readonly<JsonObject>,
    /** The page's cache hints, written into its 2026-07-28 JSON (no legacy revision has them). */
    hints: CacheHints,
    modern: ModernCodec,
    /** Extra fields of an item in a legacy revision's page (an extension's, e.g. a tool's `execution`); absent when none. */
    readonly legacyItemFields?: (item: Readonly<JsonObject>, version: string) => JsonObject | undefined,
  ) {
    // `resultType`'s slot first, as in every modern answer.
    super(JSON.stringify(modern.finish({ resultType: undefined, ...members }, hints)));
  }
}
