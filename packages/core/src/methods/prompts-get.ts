import { InvalidParamsError } from '../errors/protocol-errors.js';
import { defineMethod } from './method.js';
import { isThenable } from '../async/thenable.js';
import { promptTarget, type PromptTarget } from '../registry/targets.js';
import { promptResultFromValue } from '../results/prompt-result.js';
import { formatIssues } from '../schema/issues.js';
import { handlerFailure } from './handler-failure.js';
import { invokeHandler } from './invoke-handler.js';

/** `prompts/get`: arguments are a map of strings, validated against the prompt's schema. */
export const promptsGetMethod = defineMethod<PromptTarget>({
  method: 'prompts/get',
  served: (s) => s.registry.hasPrompts,
  resolve: promptTarget,
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
