/**
 * The "needs input" signal and the `InputRequiredResult` it becomes. `ctx.elicit`, `ctx.sample`
 * and `ctx.roots` throw {@link InputRequiredSignal} when their answer is not there yet; the
 * MRTR seam (`asks/mrtr/mrtr-seam.ts`) turns the round into `input_required`.
 *
 * Handlers must not swallow the signal (a bare `catch {}` around `await ctx.elicit(...)`). If one
 * does, the round still knows input was requested, and the answer is `input_required` anyway.
 */
import type { InputRequest } from '../ask-types.js';

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
