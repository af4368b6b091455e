/**
 * A busy endpoint answers the POSTs of one event-loop turn together, after Node has read them all.
 *
 * Why: one tools/call's own work (parse, route, validate, run, write the answer) takes ~1.8 µs of
 * CPU when the same request runs in a loop, and 3–4× that between Node's HTTP code for one request
 * and for the next: each request finds the caches and branch predictors full of the other code.
 * When many connections are busy, libuv's poll phase reads every socket that became readable, one
 * after another; answering those requests in the check phase that follows (`setImmediate`) runs
 * Node's and Fastify's code for all of them, then Decorum's for all of them. By hand at 64
 * connections (docs/perf-notes.md, "Answers in batches"): server CPU per call 1.31× L0's → 0.85×.
 *
 * Not when the endpoint is quiet: deferring a request that arrives alone costs a turn of the check
 * phase (~3 µs of CPU more per call at 1 connection, ~9 at 2, where batches hold one or two). So
 * requests are answered at once, and every {@link PROBE_EVERY}th is deferred to see how many join
 * it; batching stays on while a batch holds at least {@link MIN_BATCH}.
 */

/** Requests answered at once between two probes: a probe's cost, spread, is ~0.1 µs per call. */
export const PROBE_EVERY = 32;

/** The smallest batch worth its turn (batching every request: ~10 % less CPU at 4 connections, ~20 % more at 2). */
export const MIN_BATCH = 4;

/**
 * Bodies up to this many characters join batches. A batch of large ones (64 KiB echoes) keeps their
 * bytes in the caches instead of the code, and cost more than it saved: at 64 connections the echo
 * went from 0.98× to 1.25× L0's CPU per call (docs/perf-notes.md, "Answers in batches").
 */
export const MAX_BATCHED_BODY = 8 * 1024;

/** Whether a request body (the endpoint's text, or what stands for bytes that were not UTF-8) is small enough to join a batch. */
export function isSmallBody(body: unknown): boolean {
  return typeof body !== 'string' || body.length <= MAX_BATCHED_BODY;
}

/** Batches of one kind of item (a reply to write), each answered by `answer` in the turn's check phase. */
export class PostBatches<T> {
  private queue: T[] = [];
  private batching = false;
  private sinceProbe = 0;

  /**
   * @param answer answers one deferred item.
   * @param failed called with an item whose `answer` threw, so that it is answered still (the rest of the batch is, too).
   */
  constructor(
    private readonly answer: (item: T) => void,
    private readonly failed: (item: T, error: unknown) => void,
  ) {}

  /** Takes `item` into this turn's batch (`true`: it will be answered), or leaves it to the caller to answer now (`false`). */
  defer(item: T): boolean {
    if (this.queue.length === 0) {
      if (!this.batching && ++this.sinceProbe < PROBE_EVERY) return false;
      this.sinceProbe = 0;
      setImmediate(this.flush);
    }
    this.queue.push(item);
    return true;
  }

  private readonly flush = (): void => {
    const batch = this.queue;
    this.queue = [];
    this.batching = batch.length >= MIN_BATCH;
    for (const item of batch) {
      try {
        this.answer(item);
      } catch (error) {
        this.failed(item, error);
      }
    }
  };
}
