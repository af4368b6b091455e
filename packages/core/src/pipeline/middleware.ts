import { InternalError } from '../errors/protocol-errors.js';
import type { RawJson } from '../wire/raw-json.js';
import type { Result } from '../protocol/types.js';
import type { PipelineCall } from './call.js';
import { stepName } from './step-name.js';
import type { StepTimer, StepWatch } from './step-timeout.js';

/**
 * What a request produces: a result object, or a list page serialized at start-up (`RawJson`,
 * for `tools/list` and the other lists). An error is thrown, not returned.
 */
export type CallResult = Result | RawJson;

/** Runs the rest of the chain (the next middleware, at the end the handler). Call it at most once. */
export type Next = () => Promise<CallResult>;

/**
 * Code around a request. It may look at `call`, run the rest with `next()` and return (or change)
 * its result, or answer without calling `next` — with a result, or by throwing an error (a typed
 * `McpProtocolError` reaches the client as it is; anything else becomes a generic -32603).
 *
 * ```ts
 * const timing: Middleware = async (call, next) => {
 *   const started = performance.now();
 *   try { return await next(); } finally { call.ctx.log.info({ ms: performance.now() - started }, call.method); }
 * };
 * ```
 */
export type Middleware = (call: PipelineCall, next: Next) => Promise<CallResult> | CallResult;

/**
 * Runs `chain` around `terminal`, outermost first. A middleware that returns nothing (neither a
 * result nor `next()`'s), returns something other than a result object, or calls `next` twice is a
 * bug in it: -32603 that names it. With a `timer` (`stepTimeoutMs`), a middleware whose own code —
 * before it calls `next()`, and after that settles — runs longer than the bound ends the request
 * with -32603 naming it, and a `next()` it calls afterwards runs nothing.
 */
export function runChain<C extends PipelineCall>(
  chain: readonly Middleware[],
  call: C,
  terminal: Terminal<C>,
  timer?: StepTimer,
): Promise<CallResult> | CallResult {
  if (chain.length === 0) return terminal.run(call);
  if (timer === undefined) return step(chain, 0, call, terminal, undefined);
  return new Promise<CallResult>((resolve, reject) => {
    const watch = timer.watch(call, reject);
    step(chain, 0, call, terminal, watch).then(
      (result) => {
        watch.end();
        resolve(result);
      },
      (error: unknown) => {
        watch.end();
        reject(error);
      },
    );
  });
}

// Not an async function: a middleware that answers with a promise is followed by one `then`, with
// no extra frame and tick per step (the chain runs for every request that has middleware).
function step<C extends PipelineCall>(
  chain: readonly Middleware[],
  index: number,
  call: C,
  terminal: Terminal<C>,
  watch: StepWatch | undefined,
): Promise<CallResult> {
  if (index === chain.length) {
    try {
      return Promise.resolve(terminal.run(call));
    } catch (error) {
      return Promise.reject(error);
    }
  }
  const middleware = chain[index]!;
  let called = false;
  let answered = false;
  const next: Next = () => {
    if (watch?.expired)
      return Promise.reject(
        new InternalError(`Middleware "${stepName(middleware, index, 'middleware')}" called next() after its request was ended (stepTimeoutMs)`),
      );
    if (called) return Promise.reject(new InternalError(`Middleware "${stepName(middleware, index, 'middleware')}" called next() more than once`));
    called = true;
    if (watch === undefined) return step(chain, index + 1, call, terminal, undefined);
    // The rest of the chain runs on its own clock; this middleware's resumes when it settles.
    watch.disarm();
    const resume = () => {
      if (!answered) watch.arm('Middleware', middleware, index);
    };
    return step(chain, index + 1, call, terminal, watch).then(
      (result) => {
        resume();
        return result;
      },
      (error: unknown) => {
        resume();
        throw error;
      },
    );
  };
  // The middleware's own time ends when its answer settles (or it throws).
  const answer = (): void => {
    answered = true;
    watch?.disarm();
  };
  watch?.arm('Middleware', middleware, index);
  let output: Promise<CallResult> | CallResult;
  try {
    output = middleware(call, next);
  } catch (error) {
    answer();
    return Promise.reject(error);
  }
  // A sync answer and a promise alike: Promise.resolve gives a promise back as it is.
  return Promise.resolve(output).then(
    (result) => {
      answer();
      return checkedResult(result, middleware, index);
    },
    (error: unknown) => {
      answer();
      throw error;
    },
  );
}

/** A middleware's answer, if it is a result; else the -32603 that names the middleware. */
function checkedResult(result: CallResult, middleware: Middleware, index: number): CallResult {
  if (result === undefined || result === null) {
    throw new InternalError(`Middleware "${stepName(middleware, index, 'middleware')}" returned nothing: return next()'s result, or a result of its own`);
  }
  if (typeof result !== 'object' || Array.isArray(result)) {
    throw new InternalError(
      `Middleware "${stepName(middleware, index, 'middleware')}" returned ${Array.isArray(result) ? 'an array' : `a ${typeof result}`}, not a result object`,
    );
  }
  return result;
}

/**
 * The method's own handler at the end of the chain; it may answer synchronously (list pages do).
 * An object rather than a function: the method itself is the terminal, with no closure per request.
 */
export interface Terminal<C extends PipelineCall = PipelineCall> {
  run(call: C): Promise<CallResult> | CallResult;
}

/** A middleware that runs only for the given methods (`['tools/call']`); the others pass through. */
export function forMethods(methods: readonly string[], middleware: Middleware): Middleware {
  const only = new Set(methods);
  const scoped: Middleware = (call, next) => (only.has(call.method) ? middleware(call, next) : next());
  Object.defineProperty(scoped, 'name', { value: middleware.name });
  return scoped;
}
