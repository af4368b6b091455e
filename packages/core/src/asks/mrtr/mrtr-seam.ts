/**
 * The modern era's way of answering asks: an MRTR round. A retry's `requestState` is opened and
 * checked before the handler runs, so a tampered, expired or re-bound state is -32602 and the
 * handler never runs. A first request gets its round only when the handler first asks (most never
 * do): no argument digest, no round state per request.
 */
import type { Logger } from 'pino';
import type { AskingCall, AskSeam, AskTarget, HandlerAsks, HandlerOutcome } from '../handler-asks.js';
import { isThenable } from '../../async/thenable.js';
import { bindingOf } from './binding.js';
import { InputRound, mrtrConfig, type MrtrConfig } from './input-round.js';
import type { CreateMessageParams, ElicitParams, InputOptions } from '../ask-types.js';

/** The asks of one modern request: the round, made on the first ask (or at once for a retry). */
class LazyRound implements HandlerAsks {
  round: InputRound | undefined;

  constructor(
    private readonly call: AskingCall,
    private readonly target: AskTarget,
  ) {}

  open(): InputRound {
    if (this.round) return this.round;
    const { call, target } = this;
    const binding = bindingOf(call.request.method, target.name, target.args, call.auth?.principal);
    return (this.round = new InputRound(target.mrtr ?? defaultMrtrConfig(call.log), binding, call.clientCapabilities, call.request.params ?? {}));
  }

  elicit(params: ElicitParams, options?: InputOptions) {
    return this.open().elicit(params, options);
  }

  sample(params: CreateMessageParams, options?: InputOptions) {
    return this.open().sample(params, options);
  }

  roots(options?: InputOptions) {
    return this.open().roots(options);
  }

  once<T>(name: string, fn: () => T | Promise<T>): Promise<T> {
    return this.open().once(name, fn);
  }
}

/**
 * Runs a handler under MRTR and converts a pending ask into `input_required` — whether the
 * signal propagated or the handler caught it (then it is logged as a handler bug). Other errors
 * are rethrown for the method's own error handling. Not an async function: a synchronous handler
 * is answered synchronously, with no promise, frame or microtask turn of its own (a tools/call
 * of a plain handler runs through here on every request).
 */
export const mrtrSeam: AskSeam = {
  run<T>(call: AskingCall, target: AskTarget, invoke: (asks: HandlerAsks) => T | Promise<T>): Promise<HandlerOutcome<T>> | HandlerOutcome<T> {
    const asks = new LazyRound(call, target);
    const params = call.request.params;
    const retry = params !== undefined && (params.requestState !== undefined || params.inputResponses !== undefined);
    if (retry) asks.open();
    let returned: T | Promise<T>;
    try {
      returned = invoke(asks);
    } catch (error) {
      return interrupted(asks, error);
    }
    if (isThenable(returned)) {
      return Promise.resolve(returned).then(
        (value) => returnedValue(call, asks, value, retry),
        (error: unknown) => interrupted(asks, error),
      );
    }
    return returnedValue(call, asks, returned, retry);
  },
};

/** A handler threw: the signal itself, or whatever it threw after catching it, means the round asked for input. */
function interrupted(asks: LazyRound, error: unknown): HandlerOutcome<never> {
  if (asks.round?.pending) return { kind: 'input_required', result: asks.round.inputRequired() };
  throw error;
}

/** A handler returned: its value, unless it caught the signal of a pending ask. */
function returnedValue<T>(call: AskingCall, asks: LazyRound, value: T, retry: boolean): HandlerOutcome<T> {
  if (asks.round?.pending) {
    call.log.warn(
      { key: asks.round.pending.key },
      'a handler caught InputRequiredSignal and returned; answering input_required anyway (let the signal propagate)',
    );
    return { kind: 'input_required', result: asks.round.inputRequired() };
  }
  return { kind: 'value', value, retry };
}

let fallbackConfig: MrtrConfig | undefined;
/** For servers whose state carries no MRTR settings (built outside createServer). */
function defaultMrtrConfig(log: Logger): MrtrConfig {
  return (fallbackConfig ??= mrtrConfig({}, log));
}
