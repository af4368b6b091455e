/**
 * A busy endpoint answers the POSTs of one event-loop turn together, after Node has read them all.
 *
 * Why: one tools/call's own work runs several times slower between Node's HTTP code for one request
 * and for the next than in a loop: each request finds the caches and branch predictors full of the
 * other code. When many connections are busy, libuv's poll phase reads every socket that became
 * readable, one after another; answering those requests in the check phase that follows
 * (`setImmediate`) runs Node's and Fastify's code for all of them, then Decorum's for all of them
 * (docs/perf-notes.md, "Answers in batches").
 *
 * Not when the endpoint is quiet: deferring a request that arrives alone costs a turn of the check
 * phase, more than batches of one or two save. So requests are answered at once, and every {@link PROBE_EVERY}th is deferred to see how many join
 * it; batching stays on while a batch holds at least {@link MIN_BATCH}.
 */

/** Requests answered at once between two probes, so that a probe's cost, spread over them, is small. */
export const PROBE_EVERY = 32;

/** The smallest batch worth its turn (docs/perf-notes.md, "Figures behind source comments"). */
export const MIN_BATCH = 4;

/**
 * Bodies up to this many characters join batches. A batch of large ones (64 KiB echoes) keeps their
 * bytes in the caches instead of the code, and cost more than it saved (docs/perf-notes.md, "Answers in batches").
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
