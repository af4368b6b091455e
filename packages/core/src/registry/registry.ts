import type { CacheHints, JsonObject } from '../protocol/types.js';
import type { ModernCodec } from '../era/modern-codec.js';
import type { CompleterEntry, FixedResourceEntry, PromptEntry, ResourceEntry, TemplateResourceEntry, ToolEntry } from './entries.js';
import { ListPages } from './list-pages.js';
import { NameLedger } from './names.js';
import type { ScannedServer } from './scanner.js';

/** How lists are paged and what cache hints they carry by default. */
export interface ListSettings {
  pageSize: number;
  listCache: CacheHints;
  /** The server's 2026-07-28 codec, which finishes each page's modern JSON once (list-page.ts). */
  modern: ModernCodec;
  /** Extra fields of a tool's item on a legacy revision's `tools/list` page (extensions'); absent when none. */
  legacyToolFields?: (tool: ToolEntry, version: string) => JsonObject | undefined;
}

/** A resource matched for a URI, with the template variables when it came from a template. */
export interface ResourceMatch {
  entry: ResourceEntry;
  variables: Record<string, string | string[]>;
}

/**
 * Everything a server serves, merged from its classes and frozen: lookups by name, resource
 * routing, and the list pages serialized once. A change would build a new Registry.
 */
export class Registry {
  readonly tools: ReadonlyMap<string, ToolEntry>;
  readonly prompts: ReadonlyMap<string, PromptEntry>;
  readonly fixedResources: ReadonlyMap<string, FixedResourceEntry>;
  /** Most specific first, so `users://{id}/profile` wins over `users://{path}`. */
  readonly templates: readonly TemplateResourceEntry[];
  readonly toolPages: ListPages;
  readonly promptPages: ListPages;
  readonly resourcePages: ListPages;
  readonly templatePages: ListPages;

  /** Completers of the prompts and resources served here, by `completionKey` and argument. */
  private readonly completers = new Map<string, CompleterEntry>();

  constructor(servers: readonly ScannedServer[], settings: ListSettings) {
    checkNames(servers);
    const tools = new Map<string, ToolEntry>();
    const prompts = new Map<string, PromptEntry>();
    const fixed = new Map<string, FixedResourceEntry>();
    const templates: TemplateResourceEntry[] = [];
    for (const server of servers) {
      for (const tool of server.tools) tools.set(tool.name, tool);
      for (const prompt of server.prompts) prompts.set(prompt.name, prompt);
      for (const resource of server.resources) {
        if (resource.kind === 'fixed') fixed.set(resource.uri, resource);
        else templates.push(resource);
      }
    }
    // A completer is served with its prompt or resource: one disabled or removed takes its completers along.
    const served = new Set([
      ...[...prompts.keys()].map((prompt) => `prompt:${prompt}`),
      ...[...fixed.keys(), ...templates.map((t) => t.template.template)].map((ref) => `resource:${ref}`),
    ]);
    for (const server of servers) {
      // A later declaration wins (a class added at run time over the ones before it).
      for (const completer of server.completers) if (served.has(completer.key)) this.completers.set(`${completer.key}\n${completer.argument}`, completer);
    }
    this.tools = tools;
    this.prompts = prompts;
    this.fixedResources = fixed;
    this.templates = Object.freeze([...templates].sort((a, b) => b.template.specificity - a.template.specificity));
    const pages = (key: string, items: Array<{ descriptor: object; cache?: object }>, legacyFields?: ConstructorParameters<typeof ListPages>[5]) =>
      new ListPages(
        key,
        items.map((i) => ({ descriptor: i.descriptor, cache: i.cache ?? {} })),
        settings.pageSize,
        settings.listCache,
        settings.modern,
        legacyFields,
      );
    const { legacyToolFields } = settings;
    this.toolPages = pages(
      'tools',
      [...tools.values()].map((t) => ({ descriptor: t.definition, cache: t.cache })),
      legacyToolFields && ((item, version) => legacyToolFields(tools.get(item.name as string)!, version)),
    );
    // A resource's own cache hints are for reading it, not for the list that names it.
    const listed = (items: Array<{ descriptor: object }>) => items.map((i) => ({ descriptor: i.descriptor }));
    this.promptPages = pages(
      'prompts',
      [...prompts.values()].map((p) => ({ descriptor: p.descriptor, cache: p.cache })),
    );
    this.resourcePages = pages('resources', listed([...fixed.values()]));
    this.templatePages = pages('resourceTemplates', listed(templates));
  }

  get hasTools(): boolean {
    return this.tools.size > 0;
  }

  get hasPrompts(): boolean {
    return this.prompts.size > 0;
  }

  /** The completer of one argument of a reference (`completionKey`), when it is served. */
  completer(key: string, argument: string): CompleterEntry | undefined {
    return this.completers.get(`${key}\n${argument}`);
  }

  get hasResources(): boolean {
    return this.fixedResources.size > 0 || this.templates.length > 0;
  }

  /** Routes a URI: fixed URIs first, then templates, most specific first. */
  findResource(uri: string): ResourceMatch | undefined {
    const exact = this.fixedResources.get(uri);
    if (exact) return { entry: exact, variables: {} };
    for (const entry of this.templates) {
      const variables = entry.template.match(uri);
      if (variables) return { entry, variables };
    }
    return undefined;
  }
}

/**
 * Refuses two declarations of one tool, prompt, resource name or resource URI across `servers`,
 * naming both (`DecorumStartupError` DUPLICATE_NAME). Builds nothing: `live.add` checks with it
 * before any snapshot exists.
 */
export function checkNames(servers: readonly ScannedServer[]): void {
  const toolNames = new NameLedger('tool');
  const promptNames = new NameLedger('prompt');
  const resourceNames = new NameLedger('resource name');
  const uris = new NameLedger('resource URI');
  for (const server of servers) {
    for (const tool of server.tools) toolNames.claim(tool.name, tool.source);
    for (const prompt of server.prompts) promptNames.claim(prompt.name, prompt.source);
    for (const resource of server.resources) {
      resourceNames.claim(resource.name, resource.source);
      uris.claim(resource.kind === 'fixed' ? resource.uri : resource.template.template, resource.source);
    }
  }
}
