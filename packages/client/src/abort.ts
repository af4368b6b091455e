/**
 * A controller that aborts when `parent` does (with its reason), or when aborted itself.
 * Used instead of `AbortSignal.any`, whose combined signals Node may collect while still needed
 * (a long-lived listen stream then never closes); `release` unhooks it from the parent.
 */
export function childController(parent: AbortSignal | undefined): { controller: AbortController; release(): void } {
  const controller = new AbortController();
  if (!parent) return { controller, release: () => {} };
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { controller, release: () => {} };
  }
  const onAbort = () => controller.abort(parent.reason);
  parent.addEventListener('abort', onAbort, { once: true });
  return { controller, release: () => parent.removeEventListener('abort', onAbort) };
}
