/**
 * Whether a long string in a content block (a 64 KiB text, an image's base64 `data`) is its own
 * JSON between quotes, found without `JSON.stringify`'s per-character escape scan.
 *
 * Why: `JSON.stringify` of a long text spends nearly all its time in that scan. Here a long string that is pure ASCII (its UTF-8 length is its length) is copied into a scratch buffer
 * (`latin1`, a memcpy) and checked there (memchr, then sixteen bytes at a time) for the only bytes
 * JSON must escape in ASCII: `"`, `\` and controls below 0x20. result-json.ts
 * writes a clean one between quotes, or sets it apart for a transport that writes it in pieces
 * (`LongTextJson`); a string that needs escaping, or is not ASCII, goes to `JSON.stringify`.
 *
 * No `Buffer` is made per answer for it: one freed only when the garbage collector finds it, 64 KiB
 * at a time in bursts, made the C allocator give memory back to the system and fault it in again.
 * The HTTP transport copies a set apart text into buffers it reuses (fastify/src/text-buffers.ts).
 * The figures are in docs/perf-notes.md, "Figures behind source comments".
 */

/** From this length a content block's string is checked by {@link isPlainAscii} (shorter ones: `JSON.stringify`, as fast for them). */
export const LONG_STRING = 1024;

/** Strings up to this length are checked in one scratch buffer kept between calls; longer ones in a buffer of their own. */
const MAX_SCRATCH = 1024 * 1024;
let scratch = Buffer.allocUnsafeSlow(0);

/**
 * True when the string is ASCII (so its UTF-8 bytes are its `latin1` bytes, one per character) and
 * JSON writes it as it is between quotes. For a long string (from {@link LONG_STRING}).
 */
export function isPlainAscii(value: string): boolean {
  const length = value.length;
  if (Buffer.byteLength(value) !== length) return false;
  const bytes = length <= MAX_SCRATCH ? scratchFor(length) : Buffer.allocUnsafeSlow(length);
  bytes.write(value, 0, 'latin1');
  return needsNoEscape(bytes);
}

/**
 * The first `length` bytes of the scratch buffer, grown (by doubling, up to {@link MAX_SCRATCH})
 * to hold them. Exactly `length`: what is left of a longer string checked before must not be
 * searched again (memchr would run on to the end of it).
 */
function scratchFor(length: number): Buffer {
  if (scratch.length < length) scratch = Buffer.allocUnsafeSlow(Math.min(MAX_SCRATCH, Math.max(length, 2 * scratch.length)));
  return scratch.subarray(0, length);
}

/**
 * True when no byte (all ASCII) is `"`, `\` or below 0x20. The two characters are found by
 * `indexOf` (memchr); the controls four bytes at a time: `(w - 0x20202020) & ~w` sets a byte's top
 * bit when that byte is below 0x20 (every byte is below 0x80 here).
 */
function needsNoEscape(bytes: Buffer): boolean {
  if (bytes.indexOf(0x22) !== -1 || bytes.indexOf(0x5c) !== -1) return false;
  const to = bytes.length;
  let i = 0;
  const base = bytes.byteOffset;
  for (; i < to && ((base + i) & 3) !== 0; i++) if (bytes[i]! < 0x20) return false;
  // Whole blocks of four words; the last few bytes one by one below.
  const words = new Int32Array(bytes.buffer, base + i, ((to - i) >>> 4) << 2);
  if ((controlBits(words) & 0x80808080) !== 0) return false;
  for (i += words.length * 4; i < to; i++) if (bytes[i]! < 0x20) return false;
  return true;
}

/**
 * The words' bytes below 0x20, as top bits (OR-ed over all words; their count is a multiple of
 * four). Four words a turn, as the loop's own steps are then paid once per 16 bytes. A function of
 * its own, with nothing after its loop (hence no loop for a last word or two): V8 optimizes a long
 * loop on the stack (OSR), and code after the loop that had not run yet deoptimized it on every
 * call, each followed by a recompile (docs/perf-notes.md, "Figures behind source comments").
 */
function controlBits(words: Int32Array): number {
  let below = 0;
  for (let k = 0; k < words.length; k += 4) {
    const a = words[k]!;
    const b = words[k + 1]!;
    const c = words[k + 2]!;
    const d = words[k + 3]!;
    below |= ((a - 0x20202020) & ~a) | ((b - 0x20202020) & ~b) | ((c - 0x20202020) & ~c) | ((d - 0x20202020) & ~d);
  }
  return below;
}
