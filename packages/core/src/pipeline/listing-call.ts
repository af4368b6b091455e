import type { RequestContext } from '../context/request-context.js';
import type { JsonObject } from '../protocol/types.js';
import type { PromptEntry, ResourceEntry, ToolEntry } from '../registry/entries.js';
import { PipelineCall } from './call.js';
import type { CallTarget } from '../registry/targets.js';

/** The four lists, by the key their result carries. */
export type ListKind = 'tools' | 'prompts' | 'resources' | 'resourceTemplates';

/** An item of one of the lists. */
export type ListEntry = ToolEntry | PromptEntry | ResourceEntry;

const NO_PARAMS: JsonObject = Object.freeze({}) as JsonObject;

/** The method that would use an item of each list, and the target that method resolves for it. */
const USES: Record<ListKind, { method: string; target(e: ListEntry): CallTarget }> = {
  tools: { method: 'tools/call', target: (e) => ({ kind: 'tool', name: e.name, entry: e as ToolEntry }) },
  prompts: { method: 'prompts/get', target: (e) => ({ kind: 'prompt', name: e.name, entry: e as PromptEntry }) },
  resources: {
    method: 'resources/read',
    target: (e) => ({ kind: 'resource', name: e.name, entry: e as ResourceEntry, uri: (e as ResourceEntry & { uri: string }).uri }),
  },
  resourceTemplates: { method: 'resources/read', target: (e) => ({ kind: 'resource', name: e.name, entry: e as ResourceEntry, uri: '' }) },
};

/** The list an entry appears in. */
export function listOf(entry: ListEntry, method: string): ListKind {
  if (method === 'tools/call') return 'tools';
  if (method === 'prompts/get') return 'prompts';
  return (entry as ResourceEntry).kind === 'template' ? 'resourceTemplates' : 'resources';
}

/** A caller's request described as a use of one item without arguments, so that the item's guards can judge it. */
class ListingCall extends PipelineCall {
  readonly params = NO_PARAMS;
  constructor(
    private readonly caller: PipelineCall,
    readonly method: string,
    readonly target: CallTarget,
  ) {
    super(true);
  }
  get protocolVersion() {
    return this.caller.protocolVersion;
  }
  get id() {
    return this.caller.id;
  }
  get auth() {
    return this.caller.auth;
  }
  get peer() {
    return this.caller.peer;
  }
  get sessionId() {
    return this.caller.sessionId;
  }
  get ctx(): RequestContext {
    return this.caller.ctx;
  }
}

/**
 * The call the guards of `entry` judge to decide whether `caller` sees it (`call.listing === true`):
 * what per-caller lists ask, and what completion, subscriptions and refusals ask to hide the same
 * items. `target` names one URI of a template (a subscription's update); by default none.
 */
export function listingCall(kind: ListKind, caller: PipelineCall, entry: ListEntry, target?: CallTarget): PipelineCall {
  const use = USES[kind];
  return new ListingCall(caller, use.method, target ?? use.target(entry));
}
