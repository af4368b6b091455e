import { isSmallBody, MAX_BATCHED_BODY, MIN_BATCH, PostBatches, PROBE_EVERY } from '../src/post-batches.js';

/** Resolves in the check phase, after the immediates scheduled before it (a batch's flush). */
const checkPhase = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A batcher that records what it answered, and which items failed with what. */
function recorder(throwOn?: number) {
  const answered: number[] = [];
  const failed: Array<[number, string]> = [];
  const batches = new PostBatches<number>(
    (item) => {
      if (item === throwOn) throw new Error(`item ${item} broke`);
      answered.push(item);
    },
    (item, error) => failed.push([item, (error as Error).message]),
  );
  return { batches, answered, failed };
}

/** Requests answered at once until the probe; returns how many that took. */
function untilProbe(batches: PostBatches<number>): number {
  for (let i = 1; i <= PROBE_EVERY; i++) if (batches.defer(i)) return i;
  throw new Error('no probe');
}

describe('PostBatches', () => {
  test('a quiet endpoint answers at once, and defers every PROBE_EVERY-th request to the check phase', async () => {
    const { batches, answered } = recorder();
    expect(untilProbe(batches)).toBe(PROBE_EVERY);
    expect(answered).toEqual([]); // deferred: not answered in this turn
    await checkPhase();
    expect(answered).toEqual([PROBE_EVERY]);
    // A batch of one turns nothing on: the next requests are answered at once again.
    expect(batches.defer(100)).toBe(false);
    expect(untilProbe(batches)).toBe(PROBE_EVERY - 1);
  });

  test('the requests of a probe’s turn join its batch, answered in order; a batch of MIN_BATCH keeps batching on', async () => {
    const { batches, answered } = recorder();
    untilProbe(batches);
    for (let i = 1; i < MIN_BATCH; i++) expect(batches.defer(PROBE_EVERY + i)).toBe(true);
    await checkPhase();
    expect(answered).toEqual(Array.from({ length: MIN_BATCH }, (_, i) => PROBE_EVERY + i));
    // Batching on: the first request of the next turn is deferred without waiting for a probe.
    expect(batches.defer(1000)).toBe(true);
    await checkPhase();
    expect(answered.at(-1)).toBe(1000);
    // That batch held one: off again.
    expect(batches.defer(1001)).toBe(false);
  });

  test('an answer that throws is handed to `failed`, and the rest of its batch is still answered', async () => {
    const { batches, answered, failed } = recorder(PROBE_EVERY + 1);
    untilProbe(batches);
    batches.defer(PROBE_EVERY + 1);
    batches.defer(PROBE_EVERY + 2);
    await checkPhase();
    expect(failed).toEqual([[PROBE_EVERY + 1, `item ${PROBE_EVERY + 1} broke`]]);
    expect(answered).toEqual([PROBE_EVERY, PROBE_EVERY + 2]);
  });

  test('only small bodies join batches: a large one is answered at once (its bytes, not the code, would fill the caches)', () => {
    expect(isSmallBody('x'.repeat(MAX_BATCHED_BODY))).toBe(true);
    expect(isSmallBody('x'.repeat(MAX_BATCHED_BODY + 1))).toBe(false);
    expect(isSmallBody(Symbol('bytes that were not UTF-8'))).toBe(true);
  });
});
