import type { Logger } from 'pino';
import type { RawJson } from '../wire/raw-json.js';
import type { PromptEntry, ResourceEntry, ToolEntry } from '../registry/entries.js';
import { ListPages, type ListItem } from '../registry/list-pages.js';
import type { ListSettings, Registry } from '../registry/registry.js';
import type { PipelineCall } from './call.js';
import { verdict, type Guard } from './guard.js';
import { listingCall, type ListEntry, type ListKind } from './listing-call.js';
import type { StepTimer } from './step-timeout.js';

export type { ListKind } from './listing-call.js';

/** Distinct visible sets kept per registry snapshot and list (then the cache starts over). */
const MAX_CACHED_VIEWS = 256;

/** How each list finds its items, and what it shows of one. */
const LISTS: Record<ListKind, { items(r: Registry): ListEntry[]; item(e: ListEntry): ListItem }> = {
  tools: { items: (r) => [...r.tools.values()], item: (e) => ({ descriptor: (e as ToolEntry).definition, cache: e.cache }) },
  prompts: { items: (r) => [...r.prompts.values()], item: (e) => ({ descriptor: (e as PromptEntry).descriptor, cache: e.cache }) },
  resources: { items: (r) => [...r.fixedResources.values()], item: (e) => ({ descriptor: (e as ResourceEntry).descriptor, cache: {} }) },
  resourceTemplates: { items: (r) => [...r.templates], item: (e) => ({ descriptor: (e as ResourceEntry).descriptor, cache: {} }) },
};

/**
 * `lists: 'per-caller'`: each list holds only the items whose guards (and `scopes:`) let this
 * caller use them, paged like the public lists and always `cacheScope: 'private'` (a shared cache
 * must not hand one caller's list to another). Pages are built once per distinct visible set.
 */
export class PerCallerLists {
  private readonly views = new WeakMap<Registry, Map<string, ListPages>>();

  constructor(
    private readonly settings: ListSettings,
    private readonly guardsOf: (entry: ListEntry) => readonly Guard[],
    private readonly timer?: StepTimer,
    private readonly log?: Logger,
  ) {}

  async page(kind: ListKind, list: PipelineCall, registry: Registry, cursor: unknown): Promise<RawJson> {
    const spec = LISTS[kind];
    const items = spec.items(registry);
    const visible = await Promise.all(items.map(async (entry) => verdict(this.guardsOf(entry), listingCall(kind, list, entry), this.timer, this.log)));
    const key = `${kind}:${visible.map((v) => (v ? '1' : '0')).join('')}`;
    let views = this.views.get(registry);
    if (!views) this.views.set(registry, (views = new Map()));
    let pages = views.get(key);
    if (!pages) {
      if (views.size >= MAX_CACHED_VIEWS) views.clear();
      const { pageSize, listCache, modern } = this.settings;
      pages = new ListPages(kind, items.filter((_, i) => visible[i]).map(spec.item), pageSize, { ttlMs: listCache.ttlMs, cacheScope: 'private' }, modern);
      views.set(key, pages);
    }
    return pages.page(cursor);
  }
}
