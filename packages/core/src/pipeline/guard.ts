import type { Logger } from 'pino';
import { ForbiddenError, InternalError, McpProtocolError } from '../errors/protocol-errors.js';
import { isThenable } from '../async/thenable.js';
import type { PipelineCall } from './call.js';
import { stepName } from './step-name.js';
import type { StepTimer } from './step-timeout.js';

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

function failure(guard: Guard, index: number, error: unknown, call: PipelineCall, log: Logger | undefined): McpProtocolError {
  if (error instanceof McpProtocolError) return error;
  const name = stepName(guard, index, 'guard');
  // The server log: a request's ctx.log may forward to the client, which must not learn the guard.
  (log ?? call.ctx.log).error({ err: error, guard: name, rpcId: call.id }, 'guard threw');
  return new InternalError(`Guard "${name}" failed, so the call was refused (the details are in the server log)`);
}

/**
 * Runs the guards in order; the first refusal wins. Synchronous guards stay synchronous: `undefined`
 * when all passed, a promise only when one of them returned one. With a `timer`
 * (`stepTimeoutMs`), a guard whose promise has not settled within the bound refuses the call with
 * -32603 naming it. A guard that throws is logged to `log` (the server log).
 */
export function checkGuards(guards: readonly Guard[], call: PipelineCall, timer?: StepTimer, log?: Logger, from = 0): Promise<void> | undefined {
  for (let index = from; index < guards.length; index++) {
    const guard = guards[index]!;
    let verdict: boolean | Promise<boolean>;
    try {
      verdict = guard(call);
    } catch (error) {
      throw failure(guard, index, error, call, log);
    }
    if (isThenable(verdict)) {
      return (timer ? timer.bound(verdict, guard, index, call) : verdict).then(
        (allowed) => {
          if (allowed !== true) throw refusal(guard, index, call);
          return checkGuards(guards, call, timer, log, index + 1);
        },
        (error: unknown) => {
          throw failure(guard, index, error, call, log);
        },
      );
    }
    if (verdict !== true) throw refusal(guard, index, call);
  }
  return undefined;
}

/**
 * Whether every guard lets `call` through (per-caller lists, and what they hide elsewhere):
 * refusals and throws are both "no". Synchronous when the guards are.
 */
export function verdict(guards: readonly Guard[], call: PipelineCall, timer?: StepTimer, log?: Logger): boolean | Promise<boolean> {
  let pending: Promise<void> | undefined;
  try {
    pending = checkGuards(guards, call, timer, log);
  } catch {
    return false;
  }
  return pending ? pending.then(yes, no) : true;
}

const yes = (): boolean => true;
const no = (): boolean => false;
