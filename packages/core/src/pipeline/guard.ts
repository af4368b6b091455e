import { ForbiddenError, InternalError, McpProtocolError } from '../errors/protocol-errors.js';
import { isThenable } from '../engine/thenable.js';
import type { PipelineCall } from './call.js';
import { stepName } from './middleware.js';

/**
 * An access check. It answers `true` (go on) or `false` (refused: -31403 Forbidden), or throws a
 * typed error of its own (e.g. `ForbiddenError` with a better message). Any other throw is the
 * guard's bug: logged, and the call is refused with -32603 naming the guard, never with its stack.
 *
 * Guards also decide what a caller sees in per-caller lists (`lists: 'per-caller'`): there they get
 * the item as `call.target`, `call.listing === true` and no arguments.
 */
export type Guard = (call: PipelineCall) => boolean | Promise<boolean>;

function refusal(guard: Guard, index: number, call: PipelineCall): ForbiddenError {
  const name = stepName(guard, index, 'guard');
  const what = call.target ? `${call.method} "${call.target.name}"` : call.method;
  return new ForbiddenError(`Forbidden: ${what} was refused by guard "${name}"`, { guard: name });
}

function failure(guard: Guard, index: number, error: unknown, call: PipelineCall): McpProtocolError {
  if (error instanceof McpProtocolError) return error;
  const name = stepName(guard, index, 'guard');
  call.ctx.log.error({ err: error, guard: name }, 'guard threw');
  return new InternalError(`Guard "${name}" failed, so the call was refused (the details are in the server log)`);
}

/**
 * Runs the guards in order; the first refusal wins. Synchronous guards stay synchronous: `undefined`
 * when all passed, a promise only when one of them returned one.
 */
export function checkGuards(guards: readonly Guard[], call: PipelineCall, from = 0): Promise<void> | undefined {
  for (let index = from; index < guards.length; index++) {
    const guard = guards[index]!;
    let verdict: boolean | Promise<boolean>;
    try {
      verdict = guard(call);
    } catch (error) {
      throw failure(guard, index, error, call);
    }
    if (isThenable(verdict)) {
      return (verdict as Promise<boolean>).then(
        (allowed) => {
          if (allowed !== true) throw refusal(guard, index, call);
          return checkGuards(guards, call, index + 1);
        },
        (error: unknown) => {
          throw failure(guard, index, error, call);
        },
      );
    }
    if (verdict !== true) throw refusal(guard, index, call);
  }
  return undefined;
}

/** Whether every guard lets `call` through (for per-caller lists): refusals and throws are both "no". */
export async function allowedBy(guards: readonly Guard[], call: PipelineCall): Promise<boolean> {
  try {
    await checkGuards(guards, call);
    return true;
  } catch {
    return false;
  }
}
