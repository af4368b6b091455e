/**
 * Polls `probe` until it gives a value other than `undefined` or `false`, and resolves with it: a
 * test waits on a condition, never for a fixed time. After `timeoutMs` it fails saying what it
 * waited for (`what`, or what `what()` returns then, e.g. the output so far).
 */
export async function until<T>(what: string | (() => string), probe: () => T | undefined | false, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${typeof what === 'string' ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
