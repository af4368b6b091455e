import { InternalError } from '../errors/protocol-errors.js';
import type { RawJson } from '../engine/raw-json.js';
import type { Result } from '../protocol/types.js';
import type { PipelineCall } from './call.js';

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

/** The name of a middleware or guard in errors: its function name, else its place in the chain. */
export function stepName(step: (...args: never[]) => unknown, index: number, what: string): string {
  return step.name ? step.name : `${what} #${index + 1}`;
}

/**
 * Runs `chain` around `terminal`, outermost first. A middleware that returns nothing (neither a
 * result nor `next()`'s), returns something other than a result object, or calls `next` twice is a
 * bug in it: -32603 that names it.
 */
export function runChain(chain: readonly Middleware[], call: PipelineCall, terminal: Terminal): Promise<CallResult> | CallResult {
  if (chain.length === 0) return terminal();
  const step = async (index: number): Promise<CallResult> => {
    if (index === chain.length) return terminal();
    const middleware = chain[index]!;
    let called = false;
    const next: Next = () => {
      if (called) return Promise.reject(new InternalError(`Middleware "${stepName(middleware, index, 'middleware')}" called next() more than once`));
      called = true;
      return step(index + 1);
    };
    const result = await middleware(call, next);
    if (result === undefined || result === null) {
      throw new InternalError(`Middleware "${stepName(middleware, index, 'middleware')}" returned nothing: return next()'s result, or a result of its own`);
    }
    if (typeof result !== 'object' || Array.isArray(result)) {
      throw new InternalError(`Middleware "${stepName(middleware, index, 'middleware')}" returned ${Array.isArray(result) ? 'an array' : `a ${typeof result}`}, not a result object`);
    }
    return result;
  };
  return step(0);
}

/** The method's own handler at the end of the chain; it may answer synchronously (list pages do). */
export type Terminal = () => Promise<CallResult> | CallResult;

/** A middleware that runs only for the given methods (`['tools/call']`); the others pass through. */
export function forMethods(methods: readonly string[], middleware: Middleware): Middleware {
  const only = new Set(methods);
  const scoped: Middleware = (call, next) => (only.has(call.method) ? middleware(call, next) : next());
  Object.defineProperty(scoped, 'name', { value: middleware.name });
  return scoped;
}
