import type { RawJson } from '../engine/raw-json.js';
import type { JsonObject } from '../protocol/types.js';
import type { PromptEntry, ResourceEntry, ToolEntry } from '../registry/entries.js';
import { ListPages, type ListItem } from '../registry/list-pages.js';
import type { ListSettings, Registry } from '../registry/registry.js';
import { PipelineCall, type CallDescription } from './call.js';
import { allowedBy, type Guard } from './guard.js';
import type { StepTimer } from './step-timeout.js';

/** The four lists, by the key their result carries. */
export type ListKind = 'tools' | 'prompts' | 'resources' | 'resourceTemplates';

type Entry = ToolEntry | PromptEntry | ResourceEntry;

/** Distinct visible sets kept per registry snapshot and list (then the cache starts over). */
const MAX_CACHED_VIEWS = 256;
const NO_PARAMS: JsonObject = Object.freeze({}) as JsonObject;

/** The list request, described as a call of one item, so that the item's guards can judge it. */
class ItemCall implements CallDescription {
  readonly params = NO_PARAMS;
  constructor(
    private readonly list: CallDescription,
    readonly method: string,
    readonly resolved: unknown,
  ) {}
  get protocolVersion() {
    return this.list.protocolVersion;
  }
  get id() {
    return this.list.id;
  }
  get auth() {
    return this.list.auth;
  }
  get peer() {
    return this.list.peer;
  }
  get sessionId() {
    return this.list.sessionId;
  }
  context() {
    return this.list.context();
  }
}

/** How each list finds its items, the method that would use one, and what that method resolves. */
const LISTS: Record<ListKind, { items(r: Registry): Entry[]; method: string; resolved(e: Entry): unknown; item(e: Entry): ListItem }> = {
  tools: {
    items: (r) => [...r.tools.values()],
    method: 'tools/call',
    resolved: (e) => e,
    item: (e) => ({ descriptor: (e as ToolEntry).definition, cache: e.cache }),
  },
  prompts: {
    items: (r) => [...r.prompts.values()],
    method: 'prompts/get',
    resolved: (e) => e,
    item: (e) => ({ descriptor: (e as PromptEntry).descriptor, cache: e.cache }),
  },
  resources: {
    items: (r) => [...r.fixedResources.values()],
    method: 'resources/read',
    resolved: (e) => ({ entry: e, variables: {}, uri: (e as ResourceEntry & { uri: string }).uri }),
    item: (e) => ({ descriptor: (e as ResourceEntry).descriptor, cache: {} }),
  },
  resourceTemplates: {
    items: (r) => [...r.templates],
    method: 'resources/read',
    resolved: (e) => ({ entry: e, variables: {}, uri: '' }),
    item: (e) => ({ descriptor: (e as ResourceEntry).descriptor, cache: {} }),
  },
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
    private readonly guardsOf: (entry: Entry) => readonly Guard[],
    private readonly timer?: StepTimer,
  ) {}

  async page(kind: ListKind, list: CallDescription, registry: Registry, cursor: unknown): Promise<RawJson> {
    const spec = LISTS[kind];
    const items = spec.items(registry);
    const visible = await Promise.all(
      items.map((entry) => allowedBy(this.guardsOf(entry), new PipelineCall(new ItemCall(list, spec.method, spec.resolved(entry)), true), this.timer)),
    );
    const key = `${kind}:${visible.map((v) => (v ? '1' : '0')).join('')}`;
    let views = this.views.get(registry);
    if (!views) this.views.set(registry, (views = new Map()));
    let pages = views.get(key);
    if (!pages) {
      if (views.size >= MAX_CACHED_VIEWS) views.clear();
      const { pageSize, listCache, resultMeta } = this.settings;
      pages = new ListPages(kind, items.filter((_, i) => visible[i]).map(spec.item), pageSize, { ttlMs: listCache.ttlMs, cacheScope: 'private' }, resultMeta);
      views.set(key, pages);
    }
    return pages.page(cursor);
  }
}
