/** A task's round against a plain call (bench/tasks.mjs): filled in once the Tasks runner is on this branch. */
export async function measureRound() {
  return { error: 'the Tasks extension is not on this branch yet' };
}
