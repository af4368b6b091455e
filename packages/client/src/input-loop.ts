import type { InputRequiredResult, JsonObject, Result } from '@decorum/core';
import { InputRoundsExceededError, InvalidResultError } from './errors.js';
import { answerInput, type InputHandlers } from './input-handlers.js';

/** The methods that may answer `input_required` (M-02). */
export const INPUT_METHODS: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read']);

/**
 * The MRTR loop (§11): while the server answers `input_required`, gather every input it asked
 * for through the handlers, then retry the same method and params plus `inputResponses` and the
 * `requestState` echoed untouched (M-07). `send` issues each round as a new request (new id).
 * Resolves to the final result and whether any retry happened (retries are never cached, C-06).
 */
export async function withInputRounds(
  method: string,
  params: JsonObject,
  send: (params: JsonObject) => Promise<Result>,
  handlers: InputHandlers,
  maxRounds: number,
): Promise<{ result: Result; retried: boolean }> {
  let round = params;
  for (let rounds = 0; ; rounds++) {
    const result = await send(round);
    if (result.resultType !== 'input_required') return { result, retried: rounds > 0 };
    if (rounds + 1 >= maxRounds) throw new InputRoundsExceededError(method, rounds + 1);
    const { inputRequests = {}, requestState } = result as InputRequiredResult;
    if (typeof inputRequests !== 'object' || inputRequests === null || (Object.keys(inputRequests).length === 0 && requestState === undefined)) {
      throw new InvalidResultError(`${method} answered input_required with neither inputRequests nor requestState`);
    }
    const target = (params.name ?? params.uri) as string | undefined;
    const answers = await Promise.all(
      Object.entries(inputRequests).map(
        async ([key, ask]) => [key, await answerInput(handlers, ask.method, ask.params as JsonObject | undefined, { method, target, key })] as const,
      ),
    );
    // Each round starts again from the original params: no answer leaks into the next round.
    round = { ...params, inputResponses: Object.fromEntries(answers) };
    if (requestState !== undefined) round.requestState = requestState;
  }
}
