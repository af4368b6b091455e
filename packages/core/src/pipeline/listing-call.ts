import type { JsonObject } from '../protocol/types.js';
import type { PromptEntry, ResourceEntry, ToolEntry } from '../registry/entries.js';
import { PipelineCall, type CallDescription } from './call.js';

/** The four lists, by the key their result carries. */
export type ListKind = 'tools' | 'prompts' | 'resources' | 'resourceTemplates';

/** An item of one of the lists. */
export type ListEntry = ToolEntry | PromptEntry | ResourceEntry;

const NO_PARAMS: JsonObject = Object.freeze({}) as JsonObject;

/** The method that would use an item of each list, and what that method resolves for it. */
const USES: Record<ListKind, { method: string; resolved(e: ListEntry): unknown }> = {
  tools: { method: 'tools/call', resolved: (e) => e },
  prompts: { method: 'prompts/get', resolved: (e) => e },
  resources: { method: 'resources/read', resolved: (e) => ({ entry: e, variables: {}, uri: (e as ResourceEntry & { uri: string }).uri }) },
  resourceTemplates: { method: 'resources/read', resolved: (e) => ({ entry: e, variables: {}, uri: '' }) },
};

/** The list an entry appears in. */
export function listOf(entry: ListEntry, method: string): ListKind {
  if (method === 'tools/call') return 'tools';
  if (method === 'prompts/get') return 'prompts';
  return (entry as ResourceEntry).kind === 'template' ? 'resourceTemplates' : 'resources';
}

/** A caller's request (as an era describes it, or a call the pipeline runs), described as a use of one item without arguments, so that the item's guards can judge it. */
class ItemCall implements CallDescription {
  readonly params = NO_PARAMS;
  constructor(
    private readonly caller: CallDescription | PipelineCall,
    readonly method: string,
    readonly resolved: unknown,
  ) {}
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
  context() {
    return this.caller instanceof PipelineCall ? this.caller.ctx : this.caller.context();
  }
}

/**
 * The call the guards of `entry` judge to decide whether `caller` sees it (`call.listing === true`):
 * what per-caller lists ask, and what completion, subscriptions and refusals ask to hide the same
 * items. `resolved` names one URI of a template (a subscription's update); by default none.
 */
export function listingCall(kind: ListKind, caller: CallDescription | PipelineCall, entry: ListEntry, resolved?: unknown): PipelineCall {
  const use = USES[kind];
  return new PipelineCall(new ItemCall(caller, use.method, resolved ?? use.resolved(entry)), true);
}
