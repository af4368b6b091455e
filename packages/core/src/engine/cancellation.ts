/**
 * One request's cancellation, as a transport records it. Most requests finish without anyone
 * asking for an `AbortSignal`, so the signal (an `AbortController`, its event target and its
 * listeners) is made only when a handler reads `ctx.signal`; `cancelled` alone answers whether
 * the response must be suppressed.
 */
export class Cancellation {
  private controller: AbortController | undefined;
  private done = false;

  /** True once {@link cancel} was called. */
  get cancelled(): boolean {
    return this.done;
  }

  /** Marks the request cancelled and aborts the signal, if one was made. Idempotent. */
  cancel(): void {
    if (this.done) return;
    this.done = true;
    this.controller?.abort();
  }

  /** The signal handlers see; already aborted when asked for after {@link cancel}. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.done) this.controller.abort();
    }
    return this.controller.signal;
  }
}
