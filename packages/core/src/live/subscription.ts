import { InvalidParamsError } from '../errors/protocol-errors.js';
import type { RequestChannel } from '../engine/request-channel.js';
import type { PipelineCall } from '../pipeline/call.js';
import { listOf } from '../pipeline/listing-call.js';
import type { Pipeline } from '../pipeline/pipeline.js';
import type { JsonObject } from '../protocol/types.js';
import type { Registry } from '../registry/registry.js';
import type { LiveEvent } from './events.js';
import { isJsonObject } from '../protocol/json-object.js';

/** `params.notifications` of `subscriptions/listen` (L-01). */
export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

/**
 * Optional flow control a transport may add to the channel of a `subscriptions/listen` request,
 * so that a client that stops reading is cut off instead of buffering without bound: `needsDrain`
 * is true while the transport's buffer is full (`Writable.writableNeedDrain`), `onDrain` fires once
 * it has room again. Without it, delivery is never paused.
 */
export interface ChannelFlow {
  /** True while the transport's buffer is full. */
  needsDrain(): boolean;
  /** Calls `listener` once, when the transport can take more again. */
  onDrain(listener: () => void): void;
}

/** A request channel that may carry {@link ChannelFlow}. */
export type FlowChannel = RequestChannel & { readonly flow?: ChannelFlow };

const BOOLEAN_FIELDS = ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'] as const;

/** Reads the filter; unknown fields are ignored (and so left out of the acknowledgement, L-05). */
export function readFilter(params: JsonObject): SubscriptionFilter {
  const raw = params.notifications;
  if (!isJsonObject(raw)) {
    throw new InvalidParamsError('Invalid params: subscriptions/listen needs params.notifications (a SubscriptionFilter object)');
  }
  const source = raw as JsonObject;
  const filter: SubscriptionFilter = {};
  for (const field of BOOLEAN_FIELDS) {
    const value = source[field];
    if (value === undefined) continue;
    if (typeof value !== 'boolean') throw new InvalidParamsError(`Invalid params: notifications.${field} must be a boolean`);
    filter[field] = value;
  }
  const uris = source.resourceSubscriptions;
  if (uris !== undefined) {
    if (!Array.isArray(uris) || uris.some((u) => typeof u !== 'string'))
      throw new InvalidParamsError('Invalid params: notifications.resourceSubscriptions must be an array of URI strings');
    filter.resourceSubscriptions = [...new Set(uris as string[])];
  }
  return filter;
}

/** What the server agreed to deliver on one subscription, and the test each event goes through. */
export interface HonouredFilter {
  /** The acknowledged subset (`notifications` of the ack). */
  readonly ack: SubscriptionFilter;
  wants(event: LiveEvent): boolean;
}

/**
 * The subset this server honours (L-05): list changes of the kinds it serves, and the watched
 * URIs it can resolve — a resource URI, one a template matches, or a registered template itself
 * (then every URI it matches). An update to a sub-resource of a watched URI (`…/dir/file` under
 * `…/dir`) is delivered too.
 */
export function honour(filter: SubscriptionFilter, registry: Registry): HonouredFilter {
  const ack: SubscriptionFilter = {};
  if (filter.toolsListChanged && registry.hasTools) ack.toolsListChanged = true;
  if (filter.promptsListChanged && registry.hasPrompts) ack.promptsListChanged = true;
  if (filter.resourcesListChanged && registry.hasResources) ack.resourcesListChanged = true;
  const watchers: Array<(uri: string) => boolean> = [];
  if (filter.resourceSubscriptions && registry.hasResources) {
    const kept: string[] = [];
    for (const watched of filter.resourceSubscriptions) {
      const template = registry.templates.find((t) => t.template.template === watched)?.template;
      if (template) watchers.push((uri) => template.match(uri) !== undefined);
      else if (registry.findResource(watched)) {
        const parent = watched.endsWith('/') ? watched : `${watched}/`;
        watchers.push((uri) => uri === watched || uri.startsWith(parent));
      } else continue;
      kept.push(watched);
    }
    if (kept.length > 0) ack.resourceSubscriptions = kept;
  }
  return {
    ack,
    wants(event) {
      switch (event.type) {
        case 'tools/list_changed':
          return ack.toolsListChanged === true;
        case 'prompts/list_changed':
          return ack.promptsListChanged === true;
        case 'resources/list_changed':
          return ack.resourcesListChanged === true;
        case 'resources/updated':
          return watchers.some((w) => w(event.uri));
        default:
          return false;
      }
    },
  };
}

/** URIs whose verdict one subscriber keeps (then it starts over). */
const MAX_KEPT_VERDICTS = 1024;

/**
 * What one subscriber may see of the resources, in both eras and list modes: a watched URI or
 * template, and each updated URI, is judged by its resource's guards (and `scopes:`) as the
 * resource lists judge it (`Pipeline.sees`), once per URI and registry snapshot. A URI no
 * resource serves has no guards to ask.
 */
export class ResourceSight {
  private readonly verdicts = new Map<string, boolean | Promise<boolean>>();
  private judgedOn: Registry | undefined;

  constructor(
    private readonly state: { readonly registry: Registry; readonly pipeline?: Pipeline },
    private readonly caller: PipelineCall,
  ) {}

  /** Whether the subscriber sees the resource at `uri` (or the template spelled `uri`). */
  sees(uri: string): boolean | Promise<boolean> {
    const { registry, pipeline } = this.state;
    if (!pipeline) return true;
    if (this.judgedOn !== registry || this.verdicts.size >= MAX_KEPT_VERDICTS) {
      this.verdicts.clear();
      this.judgedOn = registry;
    }
    let verdict = this.verdicts.get(uri);
    if (verdict === undefined) {
      verdict = judge(registry, pipeline, this.caller, uri);
      this.verdicts.set(uri, verdict);
    }
    return verdict;
  }
}

function judge(registry: Registry, pipeline: Pipeline, caller: PipelineCall, uri: string): boolean | Promise<boolean> {
  const template = registry.templates.find((t) => t.template.template === uri);
  if (template) return pipeline.sees('resourceTemplates', template, caller);
  const match = registry.findResource(uri);
  if (!match) return true;
  return pipeline.sees(listOf(match.entry, 'resources/read'), match.entry, caller, { kind: 'resource', name: match.entry.name, entry: match.entry, uri });
}

/**
 * The filter without the watched URIs the subscriber may not see: they are left out as unknown ones
 * are. Synchronous when every guard asked is.
 */
export function seenFilter(filter: SubscriptionFilter, sight: ResourceSight): SubscriptionFilter | Promise<SubscriptionFilter> {
  const watched = filter.resourceSubscriptions;
  if (!watched) return filter;
  const seen = watched.map((uri) => sight.sees(uri));
  const kept = (verdicts: readonly boolean[]): SubscriptionFilter => ({ ...filter, resourceSubscriptions: watched.filter((_, i) => verdicts[i]) });
  return seen.every((v) => typeof v === 'boolean') ? kept(seen as boolean[]) : Promise.all(seen.map(async (v) => v)).then(kept);
}

/**
 * Sends `event` unless it updates a resource the subscriber may not see; when the resource's
 * guards answer later, it is sent then (if `open()` still holds).
 */
export function sendSeen(event: LiveEvent, sight: ResourceSight | undefined, send: (event: LiveEvent) => void, open: () => boolean): void {
  const seen = event.type === 'resources/updated' && sight ? sight.sees(event.uri) : true;
  if (seen === true) send(event);
  else if (seen !== false) void seen.then((yes) => yes && open() && send(event));
}
