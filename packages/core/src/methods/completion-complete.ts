import { defineMethod } from './method.js';
import { InvalidParamsError } from '../errors/protocol-errors.js';
import type { CompletionContext, CompletionValues } from '../decorators/complete.js';
import { completionKey, type CompleterEntry, type PromptEntry, type ResourceEntry } from '../registry/entries.js';
import type { ListKind } from '../pipeline/listing-call.js';
import type { JsonObject } from '../protocol/types.js';
import { handlerFailure } from './handler-failure.js';
import { isJsonObject } from '../protocol/json-object.js';

/** At most this many values per result (CO-03). */
export const MAX_COMPLETION_VALUES = 100;

interface CompletionTarget {
  /** The prompt or resource (template) completed, and its list: its guards decide who may complete it. */
  item: { kind: ListKind; entry: PromptEntry | ResourceEntry; unknown(): InvalidParamsError };
  completer: CompleterEntry | undefined;
  argument: string;
  value: string;
  context: Record<string, string>;
}

function object(value: unknown, what: string): JsonObject {
  if (!isJsonObject(value)) throw new InvalidParamsError(`Invalid params: completion/complete needs ${what} (an object)`);
  return value as JsonObject;
}

function string(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new InvalidParamsError(`Invalid params: completion/complete needs ${what} (a string)`);
  return value;
}

/** Shapes what a completer returned: at most 100 values, `total`/`hasMore` kept or derived. */
function completionResult(returned: CompletionValues, source: string): JsonObject {
  const values = Array.isArray(returned) ? returned : (returned as { values: unknown }).values;
  if (!Array.isArray(values) || values.some((v) => typeof v !== 'string'))
    throw new TypeError(`completer ${source} must return string[] or { values: string[] }`);
  const extra = Array.isArray(returned) ? {} : (returned as { total?: number; hasMore?: boolean });
  const completion: JsonObject = { values: values.slice(0, MAX_COMPLETION_VALUES) };
  const total = extra.total ?? (values.length > MAX_COMPLETION_VALUES ? values.length : undefined);
  if (total !== undefined) completion.total = total;
  const hasMore = extra.hasMore ?? (values.length > MAX_COMPLETION_VALUES ? true : undefined);
  if (hasMore !== undefined) completion.hasMore = hasMore;
  return completion;
}

/**
 * `completion/complete` (§9.1) for prompt arguments and resource-template variables with a
 * `@Complete` method. Served only while a completer exists (else -32601, CO-01); an unknown
 * prompt or resource is -32602; an argument without a completer gets no values. The item's guards
 * and `scopes:` apply as to its list entry: a caller they refuse is refused as `prompts/get` or
 * `resources/read` would refuse it (with per-caller lists, exactly as for an unknown name). Never
 * cached, never MRTR.
 */
export const completionCompleteMethod = defineMethod<CompletionTarget>({
  method: 'completion/complete',
  served: (s) => s.live.hasCompleters,
  resolve(params, state) {
    const ref = object(params.ref, 'params.ref');
    const argument = object(params.argument, 'params.argument');
    const name = string(argument.name, 'params.argument.name');
    const value = string(argument.value, 'params.argument.value');
    const chosen = params.context === undefined ? {} : object(object(params.context, 'params.context').arguments ?? {}, 'params.context.arguments');
    for (const [key, v] of Object.entries(chosen))
      if (typeof v !== 'string') throw new InvalidParamsError(`Invalid params: context.arguments.${key} must be a string`);
    let key: string;
    let item: CompletionTarget['item'];
    if (ref.type === 'ref/prompt') {
      const prompt = string(ref.name, 'params.ref.name');
      const unknown = () => new InvalidParamsError(`Unknown prompt: ${prompt}`);
      const entry = state.registry.prompts.get(prompt);
      if (!entry) throw unknown();
      item = { kind: 'prompts', entry, unknown };
      key = completionKey({ prompt });
    } else if (ref.type === 'ref/resource') {
      const uri = string(ref.uri, 'params.ref.uri');
      const unknown = () => new InvalidParamsError(`Resource not found: ${uri}`, { uri });
      const fixed = state.registry.fixedResources.get(uri);
      const entry = fixed ?? state.registry.templates.find((t) => t.template.template === uri);
      if (!entry) throw unknown();
      item = { kind: fixed ? 'resources' : 'resourceTemplates', entry, unknown };
      key = completionKey({ resource: uri });
    } else {
      throw new InvalidParamsError('Invalid params: params.ref.type must be "ref/prompt" or "ref/resource"');
    }
    return { item, completer: state.live.completer(key, name), argument: name, value, context: chosen as Record<string, string> };
  },
  async run(call) {
    const { resolved, state } = call;
    const { item, completer, argument, value, context } = resolved;
    // Who may not use the item may not complete it either (with per-caller lists: as if unknown).
    await state.pipeline?.admit(item.kind, item.entry, call, item.unknown);
    if (!completer) return { completion: { values: [] } };
    const ctx: CompletionContext = Object.assign(call.context(), { argument, arguments: context });
    let completion: JsonObject;
    try {
      completion = completionResult(await completer.complete(value, ctx), completer.source);
    } catch (error) {
      throw handlerFailure(error, completer.source, call.log);
    }
    return { completion };
  },
});
