/**
 * True for a promise or any other thenable: what `await` would wait for. Hot paths check first
 * and await only then, so that a synchronous answer (a compiled validator, a plain handler)
 * takes no extra turn of the microtask queue.
 */
export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
