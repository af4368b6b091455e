import { InvalidParamsError } from '../errors/protocol-errors.js';
import { unknownItem } from '../errors/unknown-item.js';
import type { JsonObject } from '../protocol/types.js';
import type { PromptEntry, ResourceEntry, ToolEntry } from './entries.js';
import { optionalObject, requireString } from './params.js';
import type { Registry, ResourceMatch } from './registry.js';

/** What a request is about, when its method has one target: the tool, prompt or resource it uses. */
export type CallTarget =
  | { readonly kind: 'tool'; readonly name: string; readonly entry: ToolEntry }
  | { readonly kind: 'prompt'; readonly name: string; readonly entry: PromptEntry }
  | { readonly kind: 'resource'; readonly name: string; readonly entry: ResourceEntry; readonly uri: string };

/** The tool a `tools/call` names. */
export type ToolTarget = Extract<CallTarget, { kind: 'tool' }>;
/** The prompt a `prompts/get` names. */
export type PromptTarget = Extract<CallTarget, { kind: 'prompt' }>;
/** The resource a `resources/read` names: the fixed resource or template serving its URI, with the template's variables. */
export type ResourceTarget = Extract<CallTarget, { kind: 'resource' }> & { readonly variables: ResourceMatch['variables'] };

/** What a target is looked up in: the registry snapshot serving now. */
interface Serving {
  readonly registry: Registry;
}

/** `tools/call`'s params read into its tool (-32602 for a missing name, bad arguments or an unknown tool). */
export function toolTarget(params: JsonObject, { registry }: Serving): ToolTarget {
  const name = requireString(params, 'name', 'tools/call', 'the tool name');
  optionalObject(params, 'arguments', 'tools/call');
  const tool = registry.tools.get(name);
  if (!tool) throw unknownItem('tool', name);
  return { kind: 'tool', name, entry: tool };
}

/** `prompts/get`'s params read into its prompt: arguments are a map of strings. */
export function promptTarget(params: JsonObject, { registry }: Serving): PromptTarget {
  const name = requireString(params, 'name', 'prompts/get', 'the prompt name');
  const args = optionalObject(params, 'arguments', 'prompts/get');
  for (const [key, value] of Object.entries(args)) {
    if (typeof value !== 'string') throw new InvalidParamsError(`Invalid params: prompt argument "${key}" must be a string`);
  }
  const prompt = registry.prompts.get(name);
  if (!prompt) throw unknownItem('prompt', name);
  return { kind: 'prompt', name, entry: prompt };
}

/** `resources/read`'s params read into its resource: fixed URIs first, then templates (-32602 with `data.uri` for an unknown one). */
export function resourceTarget(params: JsonObject, { registry }: Serving): ResourceTarget {
  const uri = requireString(params, 'uri', 'resources/read', 'the resource URI');
  const match = registry.findResource(uri);
  if (!match) throw unknownItem('resource', uri);
  return { kind: 'resource', name: match.entry.name, entry: match.entry, uri, variables: match.variables };
}
