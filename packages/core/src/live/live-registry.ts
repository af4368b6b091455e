import { DecorumStartupError, StartupErrorCode } from '../errors/startup-error.js';
import type { PromptEntry, ResourceEntry, ToolEntry } from '../registry/entries.js';
import { completionKey, type CompleterEntry } from '../registry/entries.js';
import { checkNames, Registry, type ListSettings } from '../registry/registry.js';
import { isServerTarget, scanServer, type ScannedServer } from '../registry/scanner.js';
import type { Logger } from 'pino';
import type { LiveEvent, LiveKind } from './events.js';
import { InProcessNotificationBus, type NotificationBus } from './notification-bus.js';
import { LiveReplication, type LiveClass } from './replication.js';

export type { LiveClass };

/** Which kinds a server has ever declared: their capability (and list method) stays once declared. */
interface DeclaredKinds {
  tools: boolean;
  prompts: boolean;
  resources: boolean;
}

/**
 * A registry snapshot of a live server. A kind stays served once the server has declared it, so
 * a client that subscribed to its list changes keeps a list to fetch even when all of it is
 * disabled (an empty list rather than -32601).
 */
class LiveSnapshot extends Registry {
  private readonly declared: DeclaredKinds;

  constructor(servers: readonly ScannedServer[], settings: ListSettings, declared: DeclaredKinds) {
    super(servers, settings);
    this.declared = { ...declared };
  }

  override get hasTools(): boolean {
    return this.declared.tools || super.hasTools;
  }

  override get hasPrompts(): boolean {
    return this.declared.prompts || super.hasPrompts;
  }

  override get hasResources(): boolean {
    return this.declared.resources || super.hasResources;
  }
}

/** Run-time control of one kind of primitive (tools, prompts or resources), by name. */
export interface LiveCollection {
  /** Every known name, enabled or not. */
  names(): string[];
  /** Whether the name is known (enabled or not). */
  has(name: string): boolean;
  /** Whether the name is known and currently listed and served. */
  isEnabled(name: string): boolean;
  /** Lists and serves it again; `false` when it is unknown or already enabled. */
  enable(name: string): boolean;
  /** Stops listing and serving it (calls are then unknown, -32602); `false` when unknown or already disabled. */
  disable(name: string): boolean;
  /** Forgets it; `false` when unknown. */
  remove(name: string): boolean;
}

type Kind = LiveKind;
type EntryOf<K extends Kind> = K extends 'tools' ? ToolEntry : K extends 'prompts' ? PromptEntry : ResourceEntry;

const EVENT: Record<Kind, LiveEvent> = {
  tools: { type: 'tools/list_changed' },
  prompts: { type: 'prompts/list_changed' },
  resources: { type: 'resources/list_changed' },
};

/** What a list shows of an entry: a tool's definition, a prompt's or resource's descriptor. */
function descriptorOf(entry: unknown): object {
  const e = entry as { definition?: object; descriptor?: object };
  return e.definition ?? e.descriptor ?? {};
}

/** Something that can be added at run time: a decorated class (instantiated with no arguments) or an instance. */
export type LiveTarget = LiveClass | object;

/** Options of a {@link LiveRegistry} beyond what it serves. */
export interface LiveRegistryOptions {
  /**
   * Classes that `add` may bring in at run time, by class name. Adding one of them replicates to
   * the other instances of a replicating bus (they hold the same catalogue); adding anything else
   * stays on this instance.
   */
  readonly catalogue?: readonly LiveClass[];
  /** Where a change from another instance that cannot be applied here is reported. */
  readonly logger?: Logger;
  /** Builds a class `add` is given (createServer passes its `resolve`/`container`; default `new Class()`). */
  readonly instantiate?: (serverClass: LiveClass) => object;
  /** Called with each instance `add` or `replace` serves (createServer binds it for `serverOf`). */
  readonly onAdd?: (instance: object) => void;
  /** Checks the tools `add` or `replace` brings in before they are served (createServer: the extensions' tool options). */
  readonly checkTools?: (tools: readonly ToolEntry[]) => void;
}

/**
 * The mutable side of a server. The served registry stays an immutable snapshot with its list
 * pages serialized once; every change builds the next snapshot, swaps it in (requests already
 * running keep the one they resolved against) and publishes the matching list-changed event.
 */
export class LiveRegistry {
  private readonly entries: { [K in Kind]: Map<string, { entry: EntryOf<K>; enabled: boolean }> } = {
    tools: new Map(),
    prompts: new Map(),
    resources: new Map(),
  };
  /** Every known completer, in declaration order (a later one wins); the snapshot serves those whose prompt or resource it serves. */
  private readonly completers: CompleterEntry[] = [];
  private readonly declared: DeclaredKinds = { tools: false, prompts: false, resources: false };
  private snapshot: Registry;
  private batchDepth = 0;
  private readonly pending = new Set<Kind>();
  private readonly replication: LiveReplication;
  private readonly instantiate: ((serverClass: LiveClass) => object) | undefined;
  private readonly onAdd: ((instance: object) => void) | undefined;
  private readonly checkTools: ((tools: readonly ToolEntry[]) => void) | undefined;
  readonly tools: LiveCollection;
  readonly prompts: LiveCollection;
  readonly resources: LiveCollection;

  /** @param scanned - the served classes, scanned (`scanServer`), completers included. */
  constructor(
    scanned: readonly ScannedServer[],
    private readonly settings: ListSettings,
    readonly bus: NotificationBus,
    options: LiveRegistryOptions = {},
  ) {
    // Names are checked across classes first (a duplicate is a start-up error naming both).
    checkNames(scanned);
    this.replication = new LiveReplication(bus, options.catalogue, options.logger);
    this.instantiate = options.instantiate;
    this.onAdd = options.onAdd;
    this.checkTools = options.checkTools;
    this.replication.follow(this);
    for (const server of scanned) this.take(server);
    // At start-up a completer must name a declared prompt argument or template variable.
    for (const server of scanned) for (const completer of server.completers) this.checkCompleter(completer);
    this.snapshot = this.build();
    this.tools = this.collection('tools');
    this.prompts = this.collection('prompts');
    this.resources = this.collection('resources');
  }

  /** The snapshot requests are served from now. */
  get current(): Registry {
    return this.snapshot;
  }

  /** The completer the current snapshot serves for one argument of a reference (`completionKey`). */
  completer(key: string, argument: string): CompleterEntry | undefined {
    return this.snapshot.completer(key, argument);
  }

  get hasCompleters(): boolean {
    return this.completers.length > 0;
  }

  /**
   * Adds every tool, prompt, resource and completer of a decorated class or instance, enabled.
   * A name already taken throws (`DecorumStartupError`) and changes nothing.
   */
  add(target: LiveTarget): void {
    if (!isServerTarget(target))
      throw new DecorumStartupError(StartupErrorCode.NO_SERVERS, 'live.add needs a class or instance with @Tool, @Resource or @Prompt members');
    const instance = typeof target === 'function' ? (this.instantiate?.(target as LiveClass) ?? new (target as new () => object)()) : target;
    const scanned = scanServer(instance);
    // Against everything known, disabled entries included: a name stays taken while disabled.
    checkNames([this.everything(), scanned]);
    this.checkTools?.(scanned.tools);
    this.take(scanned);
    this.onAdd?.(instance);
    this.replication.recordAdd(target, this.batchDepth > 0);
    this.batch(() => {
      if (scanned.tools.length) this.changed('tools');
      if (scanned.prompts.length) this.changed('prompts');
      if (scanned.resources.length) this.changed('resources');
    });
  }

  /**
   * Replaces everything served with what `targets` declare (hot reload: the classes of a module
   * imported again). Every check runs first, against the new set alone, so a set that fails
   * changes nothing; then one snapshot swap and one list-changed event per kind whose list
   * changed. Returns the instances now served.
   */
  replace(targets: readonly LiveTarget[]): object[] {
    const instances = targets.map((target) => {
      if (!isServerTarget(target))
        throw new DecorumStartupError(StartupErrorCode.NO_SERVERS, 'live.replace needs classes or instances with @Tool, @Resource or @Prompt members');
      return typeof target === 'function' ? new (target as new () => object)() : target;
    });
    // A scratch registry for the checks and the new entries: its own bus, so it never joins replication.
    const next = new LiveRegistry(
      instances.map((instance) => scanServer(instance)),
      this.settings,
      new InProcessNotificationBus(),
    );
    this.checkTools?.([...next.entries.tools.values()].map((e) => e.entry));
    const listed = (registry: LiveRegistry, kind: Kind) =>
      JSON.stringify([...registry.entries[kind].values()].filter((e) => e.enabled).map((e) => descriptorOf(e.entry)));
    const changed = (['tools', 'prompts', 'resources'] as const).filter((kind) => listed(this, kind) !== listed(next, kind));
    for (const kind of ['tools', 'prompts', 'resources'] as const) {
      const map = this.entries[kind] as Map<string, unknown>;
      map.clear();
      for (const [name, item] of next.entries[kind]) map.set(name, item);
      this.declared[kind] ||= next.declared[kind];
    }
    this.completers.splice(0, this.completers.length, ...next.completers);
    for (const instance of instances) this.onAdd?.(instance);
    this.batch(() => {
      for (const kind of changed) this.changed(kind);
    });
    return instances;
  }

  /** Runs several changes and publishes one event per kind that changed, at the end. */
  batch(changes: () => void): void {
    this.batchDepth++;
    try {
      changes();
    } finally {
      if (--this.batchDepth === 0) {
        this.snapshot = this.build();
        const kinds = [...this.pending];
        this.pending.clear();
        this.replication.flushBatch();
        for (const kind of kinds) this.bus.publish(EVENT[kind], this.replication.listScope);
      }
    }
  }

  /** Tells subscribers that a resource's content changed (`notifications/resources/updated`). */
  notifyResourceUpdated(uri: string): void {
    if (typeof uri !== 'string' || uri === '') throw new TypeError('notifyResourceUpdated needs a URI');
    this.bus.publish({ type: 'resources/updated', uri });
  }

  private take(server: ScannedServer): void {
    for (const tool of server.tools) this.entries.tools.set(tool.name, { entry: tool, enabled: true });
    for (const prompt of server.prompts) this.entries.prompts.set(prompt.name, { entry: prompt, enabled: true });
    for (const resource of server.resources) this.entries.resources.set(resource.name, { entry: resource, enabled: true });
    this.declared.tools ||= server.tools.length > 0;
    this.declared.prompts ||= server.prompts.length > 0;
    this.declared.resources ||= server.resources.length > 0;
    this.completers.push(...server.completers);
  }

  private checkCompleter(completer: CompleterEntry): void {
    const [kind, ...rest] = completer.key.split(':');
    const ref = rest.join(':');
    let argumentNames: readonly string[] | undefined;
    if (kind === 'prompt')
      argumentNames = this.entries.prompts.get(ref)?.entry.descriptor.arguments?.map((a) => a.name) ?? (this.entries.prompts.has(ref) ? [] : undefined);
    else {
      for (const { entry } of this.entries.resources.values()) {
        if (entry.kind === 'template' && entry.template.template === ref) argumentNames = entry.template.variableNames;
        if (entry.kind === 'fixed' && entry.uri === ref) argumentNames = [];
      }
    }
    if (argumentNames === undefined) {
      throw new DecorumStartupError(
        StartupErrorCode.INVALID_DECLARATION,
        `@Complete on ${completer.source}: no ${kind === 'prompt' ? 'prompt' : 'resource template'} ${JSON.stringify(ref)} is declared`,
      );
    }
    if (!argumentNames.includes(completer.argument)) {
      throw new DecorumStartupError(
        StartupErrorCode.INVALID_DECLARATION,
        `@Complete on ${completer.source}: ${JSON.stringify(ref)} has no argument ${JSON.stringify(completer.argument)} (it has: ${argumentNames.join(', ') || 'none'})`,
      );
    }
  }

  private everything(): ScannedServer {
    const all = <K extends Kind>(kind: K): Array<EntryOf<K>> => [...this.entries[kind].values()].map((e) => e.entry as EntryOf<K>);
    return { className: 'live', server: undefined, tools: all('tools'), prompts: all('prompts'), resources: all('resources'), completers: [] };
  }

  private build(): Registry {
    const enabled = <K extends Kind>(kind: K): Array<EntryOf<K>> => [...this.entries[kind].values()].filter((e) => e.enabled).map((e) => e.entry as EntryOf<K>);
    const server: ScannedServer = {
      className: 'live',
      server: undefined,
      tools: enabled('tools'),
      prompts: enabled('prompts'),
      resources: enabled('resources'),
      completers: this.completers,
    };
    return new LiveSnapshot([server], this.settings, this.declared);
  }

  /** A removed prompt or resource takes its completers along (a later one of the same name starts without them). */
  private forgetCompleters(kind: Kind, entry: unknown): void {
    if (kind === 'tools') return;
    const resource = entry as ResourceEntry;
    const key =
      kind === 'prompts'
        ? completionKey({ prompt: (entry as PromptEntry).name })
        : completionKey({ resource: resource.kind === 'fixed' ? resource.uri : resource.template.template });
    for (let i = this.completers.length - 1; i >= 0; i--) if (this.completers[i].key === key) this.completers.splice(i, 1);
  }

  private changed(kind: Kind): void {
    if (this.batchDepth > 0) {
      this.pending.add(kind);
      return;
    }
    this.snapshot = this.build();
    this.bus.publish(EVENT[kind], this.replication.listScope);
  }

  private collection(kind: Kind): LiveCollection {
    const map = this.entries[kind] as Map<string, { entry: unknown; enabled: boolean }>;
    const set = (name: string, enabled: boolean): boolean => {
      const item = map.get(name);
      if (!item || item.enabled === enabled) return false;
      item.enabled = enabled;
      this.replication.recordToggle(enabled ? 'enable' : 'disable', kind, name, this.batchDepth > 0);
      this.changed(kind);
      return true;
    };
    return {
      names: () => [...map.keys()],
      has: (name) => map.has(name),
      isEnabled: (name) => map.get(name)?.enabled === true,
      enable: (name) => set(name, true),
      disable: (name) => set(name, false),
      remove: (name) => {
        const item = map.get(name);
        if (!item) return false;
        map.delete(name);
        this.forgetCompleters(kind, item.entry);
        this.replication.recordToggle('remove', kind, name, this.batchDepth > 0);
        if (item.enabled) this.changed(kind);
        return true;
      },
    };
  }
}
