import type { InputRequiredResult, JsonObject, Result } from '@decorum/core';
import type { AskGate } from './ask-gate.js';
import { InputRoundsExceededError, InvalidResultError } from './errors.js';

/** The methods that may answer `input_required` (M-02). */
export const INPUT_METHODS: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read']);

/**
 * The MRTR loop (§11): while the server answers `input_required`, gather every input it asked
 * for through the gate (the handlers, within the ask limits), then retry the same method and
 * params plus `inputResponses` and the `requestState` echoed untouched (M-07). `send` issues each
 * round as a new request (new id). Resolves to the final result and whether any retry happened
 * (retries are never cached, C-06).
 */
export async function withInputRounds(
  method: string,
  params: JsonObject,
  send: (params: JsonObject) => Promise<Result>,
  gate: AskGate,
): Promise<{ result: Result; retried: boolean }> {
  const maxRounds = gate.limits.maxInputRounds;
  const target = (params.name ?? params.uri) as string | undefined;
  let round = params;
  let asked = 0;
  for (let rounds = 0; ; rounds++) {
    const result = await send(round);
    if (result.resultType !== 'input_required') return { result, retried: rounds > 0 };
    if (rounds + 1 >= maxRounds) throw new InputRoundsExceededError(method, rounds + 1);
    const { inputRequests = {}, requestState } = result as InputRequiredResult;
    if (typeof inputRequests !== 'object' || inputRequests === null || (Object.keys(inputRequests).length === 0 && requestState === undefined)) {
      throw new InvalidResultError(`${method} answered input_required with neither inputRequests nor requestState`);
    }
    const answers = await gate.answerRound(method, target, inputRequests, asked);
    asked += Object.keys(answers).length;
    // Each round starts again from the original params: no answer leaks into the next round.
    round = { ...params, inputResponses: answers };
    if (requestState !== undefined) round.requestState = requestState;
  }
}
