/**
 * The bytes of a message whose content blocks carry long strings (a 64 KiB text, an image's base64
 * `data`), written without serializing those strings through `JSON.stringify`.
 *
 * Why: on Node 20, `Buffer.from(JSON.stringify(message))` of a 64 KiB text result costs ~105 µs
 * of CPU, mostly V8's per-character escape scan, and leaves ~2–3 copies of the text as young
 * garbage (the stringifier's growing parts, the joined string); with 64 requests in flight the
 * scavenges that garbage causes were ~3× L0's GC time per request (bench echo-64k). Here a long
 * string that is pure ASCII is copied into the output once (`latin1`, a memcpy) and checked in
 * place (memchr, then sixteen bytes at a time) for the only bytes JSON must escape in ASCII: `"`, `\` and controls
 * below 0x20. A string that needs escaping (or is not ASCII) is escaped by `JSON.stringify`
 * alone. result-json.ts writes everything else, so the bytes are exactly those of
 * `JSON.stringify(message)`.
 */

/** Strings shorter than this stay in the message's text (as fast for them, and one piece). */
export const LONG_STRING = 1024;

/** A message's JSON in order: text, and the long strings written apart. */
export type Piece = string | LongString;

/** A long string value: written raw between quotes when it proves clean, else escaped. */
export class LongString {
  /** `JSON.stringify(value)`, once the value turned out to need escaping (or is not ASCII). */
  escaped: string | undefined;
  constructor(readonly value: string) {}
}

/**
 * True when no byte in `[from, to)` (all ASCII) is `"`, `\` or below 0x20. The two characters
 * are found by `indexOf` (memchr); the controls four bytes at a time: `(w - 0x20202020) & ~w`
 * sets a byte's top bit when that byte is below 0x20 (every byte is below 0x80 here).
 */
function needsNoEscape(bytes: Buffer, from: number, to: number): boolean {
  const quote = bytes.indexOf(0x22, from);
  if (quote !== -1 && quote < to) return false;
  const backslash = bytes.indexOf(0x5c, from);
  if (backslash !== -1 && backslash < to) return false;
  let i = from;
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
 * four). Four words a turn: a third less time than one (64 KiB in ~8.7 µs instead of ~13 µs, Node
 * 20), as the loop's own steps are paid once per 16 bytes. A function of its own, with nothing after
 * its loop (hence no loop for a last word or two): V8 optimizes a long loop on the stack (OSR), and
 * code after the loop that had not run yet deoptimized it on every call — 1,708 times in a second of
 * 64 KiB echoes (`--trace-deopt`, "Insufficient type feedback for binary operation"), each followed
 * by a recompile.
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

/** Writes the pieces into one buffer; a long string found to need escaping is escaped and the write redone. */
export function writePieces(pieces: readonly Piece[]): Buffer {
  for (;;) {
    let size = 0;
    for (const piece of pieces) {
      if (typeof piece === 'string') size += Buffer.byteLength(piece);
      else if (piece.escaped !== undefined) size += Buffer.byteLength(piece.escaped);
      else {
        const bytes = Buffer.byteLength(piece.value);
        if (bytes === piece.value.length) size += bytes + 2;
        else size += Buffer.byteLength((piece.escaped = JSON.stringify(piece.value)));
      }
    }
    const out = Buffer.allocUnsafe(size);
    let at = 0;
    let redo = false;
    for (const piece of pieces) {
      if (typeof piece === 'string') at += out.write(piece, at, 'utf8');
      else if (piece.escaped !== undefined) at += out.write(piece.escaped, at, 'utf8');
      else {
        out[at++] = 0x22;
        const start = at;
        at += out.write(piece.value, at, 'latin1');
        if (!needsNoEscape(out, start, at)) {
          piece.escaped = JSON.stringify(piece.value);
          redo = true;
          break;
        }
        out[at++] = 0x22;
      }
    }
    if (!redo) return out;
  }
}
