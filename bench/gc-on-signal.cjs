// Preloaded (`node --expose-gc -r`) into a server that bench/instructions.mjs counts: SIGUSR2 runs a
// full garbage collection and says so on stderr. A count must not hold a major GC that the warm-up
// started: its marking costs ~12,000 instructions a request of the window it falls in, and where it
// falls moves from run to run.
'use strict';
process.on('SIGUSR2', () => {
  globalThis.gc();
  globalThis.gc();
  process.stderr.write('\ndecorum-bench: gc done\n');
});
