import { createHash } from 'node:crypto';
import { InvalidParamsError } from '../errors/protocol-errors.js';
import type { CacheHints, JsonObject } from '../protocol/types.js';
import type { CacheOptions } from '../decorators/metadata.js';
import type { ModernCodec } from '../era/modern-codec.js';
import { ListPage } from '../wire/list-page.js';

/** One listed item and its own cache preferences. */
export interface ListItem {
  descriptor: object;
  cache: CacheOptions;
}

/**
 * The pages of one list (`tools/list`, …), made once when the registry is built. Cursors
 * are opaque but strict: they name the list's content digest and a page, so a cursor from a
 * different list or version, or a forged one, is a -32602 rather than a wrong page. Because the
 * digest depends only on content, every instance with the same registry accepts the same cursor.
 */
export class ListPages {
  private readonly pages: ListPage[];
  private readonly digest: string;

  constructor(
    listKey: string,
    items: readonly ListItem[],
    pageSize: number,
    defaults: CacheHints,
    modern: ModernCodec,
    legacyItemFields?: (item: Readonly<JsonObject>, version: string) => JsonObject | undefined,
  ) {
    const descriptors = items.map((i) => i.descriptor);
    this.digest = createHash('sha256').update(listKey).update(JSON.stringify(descriptors)).digest('base64url').slice(0, 16);
    // All pages of a list share one cacheScope (spec: caching/pagination); private if any item is.
    const scope = items.some((i) => (i.cache.cacheScope ?? defaults.cacheScope) === 'private') ? 'private' : defaults.cacheScope;
    const count = Math.max(1, Math.ceil(items.length / pageSize));
    this.pages = [];
    for (let index = 0; index < count; index++) {
      const slice = items.slice(index * pageSize, (index + 1) * pageSize);
      const ttlMs = slice.reduce((min, i) => Math.min(min, i.cache.ttlMs ?? defaults.ttlMs), defaults.ttlMs);
      const members: JsonObject = { [listKey]: slice.map((i) => i.descriptor) };
      if (index + 1 < count) members.nextCursor = this.cursor(index + 1);
      this.pages.push(new ListPage(members, { ttlMs, cacheScope: scope }, modern, legacyItemFields));
    }
  }

  private cursor(index: number): string {
    return Buffer.from(`${this.digest}:${index}`).toString('base64url');
  }

  /** The page a cursor points at (the first page without one). */
  page(cursor: unknown): ListPage {
    if (cursor === undefined) return this.pages[0];
    if (typeof cursor !== 'string') throw new InvalidParamsError('Invalid cursor: params.cursor must be a string');
    const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
    const match = /^([A-Za-z0-9_-]{16}):(\d{1,9})$/.exec(decoded);
    const index = match && match[1] === this.digest ? Number(match[2]) : -1;
    if (index < 1 || index >= this.pages.length) {
      throw new InvalidParamsError('Invalid cursor: it does not belong to this list (forged, or the list has changed); list again without a cursor');
    }
    return this.pages[index];
  }
}
