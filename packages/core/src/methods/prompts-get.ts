import { InvalidParamsError } from '../errors/protocol-errors.js';
import { unknownItem } from '../errors/unknown-item.js';
import { defineMethod } from './method.js';
import { isThenable } from '../async/thenable.js';
import type { CallTarget } from '../pipeline/call.js';
import { promptResultFromValue } from '../results/prompt-result.js';
import { formatIssues } from '../schema/issues.js';
import { handlerFailure } from './handler-failure.js';
import { invokeHandler } from './invoke-handler.js';
import { optionalObject, requireString } from './params.js';

/** The prompt a `prompts/get` names. */
type PromptTarget = Extract<CallTarget, { kind: 'prompt' }>;

/** `prompts/get`: arguments are a map of strings, validated against the prompt's schema. */
export const promptsGetMethod = defineMethod<PromptTarget>({
  method: 'prompts/get',
  served: (s) => s.registry.hasPrompts,
  resolve(params, state) {
    const name = requireString(params, 'name', 'prompts/get', 'the prompt name');
    const args = optionalObject(params, 'arguments', 'prompts/get');
    for (const [key, value] of Object.entries(args)) {
      if (typeof value !== 'string') throw new InvalidParamsError(`Invalid params: prompt argument "${key}" must be a string`);
    }
    const prompt = state.registry.prompts.get(name);
    if (!prompt) throw unknownItem('prompt', name);
    return { kind: 'prompt', name, entry: prompt };
  },
  target: (prompt) => prompt,
  async run(call) {
    const { params } = call;
    const prompt = call.resolved.entry;
    const checking = prompt.input.validate(params.arguments ?? {});
    const outcome = isThenable(checking) ? await checking : checking;
    if (!outcome.ok) {
      throw new InvalidParamsError(`Invalid arguments for prompt "${prompt.name}":\n${formatIssues(outcome.issues, null)}`, { issues: outcome.issues });
    }
    let value: unknown;
    try {
      const ran = await invokeHandler(call, prompt.name, params.arguments ?? {}, (asks) => prompt.invoke(outcome.value, call.context(asks)));
      if (ran.kind === 'input_required') return ran.result;
      value = ran.value;
    } catch (error) {
      throw handlerFailure(error, prompt.source, call.log);
    }
    // A copy: what the prompt returned may be its own object, and the codec sets keys on the result.
    return { ...promptResultFromValue(value, prompt.name) };
  },
});
