/**
 * Has glibc's `malloc` keep up to 16 MiB of freed memory instead of handing it back to the kernel
 * after every burst of frees.
 *
 * Why: V8 frees the memory of dead `Buffer`s (request bodies, the chunks Node's HTTP parser copies)
 * in bursts, one garbage collection at a time. glibc returns the free memory at the top of its heap
 * to the kernel as soon as it exceeds the trim threshold (128 KiB until the process first frees a
 * large block), and the next burst of allocations faults those pages in again (docs/perf-notes.md,
 * "Figures behind source comments").
 *
 * glibc raises the threshold by its own rule the first time the process frees a block it had
 * mapped on its own (larger than the current mmap threshold): the mmap threshold becomes that
 * block's size, the trim threshold twice that. Most long-running processes get there by chance,
 * when they free some large buffer; this makes it happen at start, with one 8 MiB buffer that is
 * never written (so it costs no resident memory) and is freed by the next collection. Allocations
 * up to 8 MiB then come from the heap rather than fresh mappings. With `MALLOC_TRIM_THRESHOLD_` or
 * `MALLOC_MMAP_THRESHOLD_` set, glibc keeps what was set; other allocators ignore the buffer.
 * test/malloc-trim.test.ts measures the page faults with and without it in a child process.
 */
let raised = false;

/** The block whose freeing raises the thresholds: its size becomes the mmap threshold. */
const BLOCK_BYTES = 8 * 1024 * 1024;

/** Allocates and drops the block, once per process (later calls do nothing). */
export function raiseMallocTrimThreshold(): void {
  if (raised) return;
  raised = true;
  Buffer.allocUnsafeSlow(BLOCK_BYTES);
}
