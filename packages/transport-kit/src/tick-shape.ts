import { createHook } from 'node:async_hooks';

/**
 * Keeps the shape of Node's `process.nextTick` objects alive for the life of the process.
 *
 * Why: `nextTick` makes each queued tick with an object literal of two symbol keys and two named
 * ones. V8 builds that object's hidden classes one property at a time, and holds them only weakly:
 * when a full garbage collection finds no tick object alive — an idle moment, which a server has
 * between bursts — the classes die, the next tick builds new ones, and the inline caches inside
 * `nextTick`, seeing a second class, turn megamorphic for good. From then on every tick object is
 * made by a runtime call (Node 20), and Node's streams queue several ticks per HTTP request
 * (docs/perf-notes.md, "Figures behind source comments").
 *
 * One real tick object, captured once through an `init` hook enabled for a single `nextTick` call,
 * keeps its hidden classes reachable, so they never die and the caches stay monomorphic.
 * test/tick-shape.test.ts checks both sides of this in a child process.
 */
let tried = false;
let keptTick: object | undefined;

/** Captures one tick object and keeps it (once per process; later calls do nothing). */
export function keepTickShape(): void {
  if (tried) return;
  tried = true;
  try {
    const hook = createHook({
      init(_asyncId, type, _triggerAsyncId, resource) {
        if (type === 'TickObject' && keptTick === undefined) keptTick = resource;
      },
    });
    hook.enable();
    try {
      process.nextTick(noop);
    } finally {
      hook.disable();
    }
  } catch {
    // A runtime without async hooks: there is nothing to keep, and serving is unaffected.
  }
}

/** Whether a tick object is being kept (for tests and diagnostics). */
export function tickShapeKept(): boolean {
  return keptTick !== undefined;
}

function noop(): void {}
