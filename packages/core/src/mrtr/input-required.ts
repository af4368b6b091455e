/**
 * The "needs input" signal and the `InputRequiredResult` it becomes. `ctx.elicit`, `ctx.sample`
 * and `ctx.roots` throw {@link InputRequiredSignal} when their answer is not there yet; the
 * method (tools/call, prompts/get, resources/read) turns the round into `input_required`.
 *
 * Handlers must not swallow the signal (a bare `catch {}` around `await ctx.elicit(...)`). If one
 * does, the round still knows input was requested, and the answer is `input_required` anyway.
 */
import { isThenable } from '../engine/thenable.js';
import type { RequestScope } from '../engine/request-scope.js';
import type { InputRequest, InputRequiredResult } from './input-types.js';

/** Thrown by an unanswered ask to end the round. Internal: never caught by handlers on purpose. */
export class InputRequiredSignal extends Error {
  constructor(
    readonly key: string,
    readonly inputRequest: InputRequest,
  ) {
    super(`MRTR: input "${key}" is required; this round ends with input_required (do not catch this in handlers)`);
    this.name = 'InputRequiredSignal';
  }
}

/** What running a handler under MRTR gave: its value, or the round's `input_required` answer. */
export type HandlerOutcome<T> = { kind: 'value'; value: T } | { kind: 'input_required'; result: InputRequiredResult };

/**
 * Runs a handler and converts a pending ask into `input_required` — whether the signal
 * propagated or the handler caught it (then it is logged as a handler bug). Other errors are
 * rethrown for the method's own error handling.
 */
export async function runWithInput<T>(scope: RequestScope, invoke: () => Promise<T> | T): Promise<HandlerOutcome<T>> {
  let value: T;
  try {
    const returned = invoke();
    // A synchronous handler's value needs no extra turn of the microtask queue.
    value = isThenable(returned) ? await returned : returned;
  } catch (error) {
    // The signal itself, or whatever a handler threw after catching it: the round asked for input.
    const round = scope.openedRound();
    if (round?.pending) return { kind: 'input_required', result: round.inputRequired() };
    throw error;
  }
  // A round exists only if the request is a retry or the handler asked.
  const round = scope.openedRound();
  if (round?.pending) {
    scope.log.warn({ key: round.pending.key }, 'a handler caught InputRequiredSignal and returned; answering input_required anyway (let the signal propagate)');
    return { kind: 'input_required', result: round.inputRequired() };
  }
  return { kind: 'value', value };
}
