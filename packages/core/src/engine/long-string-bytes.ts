/**
 * The bytes of a result whose content blocks carry long strings (a 64 KiB text, an image's base64
 * `data`), written without serializing those strings through `JSON.stringify`.
 *
 * Why: on Node 20, `Buffer.from(JSON.stringify(message))` of a 64 KiB text result costs ~105 µs
 * of CPU, mostly V8's per-character escape scan, and leaves ~2–3 copies of the text as young
 * garbage (the stringifier's growing parts, the joined string); with 64 requests in flight the
 * scavenges that garbage causes were ~3× L0's GC time per request (bench echo-64k). Here a long
 * string that is pure ASCII is copied into the output once (`latin1`, a memcpy) and checked in
 * place (memchr, then four bytes at a time) for the only bytes JSON must escape in ASCII: `"`, `\` and controls
 * below 0x20. A string that needs escaping (or is not ASCII) is escaped by `JSON.stringify`
 * alone. Everything else in the message is `JSON.stringify`'d as usual, so the bytes are exactly
 * those of `JSON.stringify(message)`.
 */

/** Strings shorter than this stay inside `JSON.stringify` (as fast for them, and one call). */
export const LONG_STRING = 1024;

type Piece = string | LongString;

/** A long string value: written raw between quotes when it proves clean, else escaped. */
class LongString {
  /** `JSON.stringify(value)`, once the value turned out to need escaping (or is not ASCII). */
  escaped: string | undefined;
  constructor(readonly value: string) {}
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
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
  const words = new Int32Array(bytes.buffer, base + i, (to - i) >>> 2);
  let below = 0;
  for (let k = 0; k < words.length; k++) {
    const w = words[k]!;
    below |= (w - 0x20202020) & ~w;
  }
  if ((below & 0x80808080) !== 0) return false;
  for (i += words.length * 4; i < to; i++) if (bytes[i]! < 0x20) return false;
  return true;
}

/** The cheap look first (the hot path's small results): does any content block hold a long string? */
function hasLongString(blocks: unknown[]): boolean {
  for (const block of blocks) {
    if (!isPlainObject(block)) continue;
    for (const field in block) {
      const value = block[field];
      if (typeof value === 'string' && value.length >= LONG_STRING) return true;
    }
  }
  return false;
}

/**
 * Splits a result into JSON text and the long strings of its content blocks (one level: the
 * block's own string properties). `undefined` when the result holds no long string, or is not the
 * plain data this splitter understands (then `JSON.stringify` does the whole message).
 */
function splitResult(head: string, result: unknown): Piece[] | undefined {
  if (!isPlainObject(result) || !Array.isArray(result.content) || typeof result.toJSON === 'function' || !hasLongString(result.content)) return undefined;
  const pieces: Piece[] = [];
  let text = `${head}{`;
  let first = true;
  for (const key in result) {
    const value = result[key];
    if (key !== 'content') {
      const json = JSON.stringify(value) as string | undefined;
      if (json === undefined) continue;
      text += `${first ? '' : ','}${JSON.stringify(key)}:${json}`;
      first = false;
      continue;
    }
    text += `${first ? '' : ','}"content":[`;
    first = false;
    const blocks = value as unknown[];
    for (let b = 0; b < blocks.length; b++) {
      const block = blocks[b];
      if (b > 0) text += ',';
      if (!isPlainObject(block) || typeof block.toJSON === 'function') {
        text += JSON.stringify(block) ?? 'null';
        continue;
      }
      text += '{';
      let firstField = true;
      for (const field in block) {
        const fieldValue = block[field];
        if (typeof fieldValue === 'string' && fieldValue.length >= LONG_STRING) {
          pieces.push(`${text}${firstField ? '' : ','}${JSON.stringify(field)}:`, new LongString(fieldValue));
          text = '';
        } else {
          const json = JSON.stringify(fieldValue) as string | undefined;
          if (json === undefined) continue;
          text += `${firstField ? '' : ','}${JSON.stringify(field)}:${json}`;
        }
        firstField = false;
      }
      text += '}';
    }
    text += ']';
  }
  pieces.push(`${text}}}`);
  return pieces;
}

/** Writes the pieces into one buffer; a long string found to need escaping is escaped and the write redone. */
function writePieces(pieces: Piece[]): Buffer {
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

/**
 * The UTF-8 bytes of `JSON.stringify(response)` for a result response whose content blocks hold
 * a string of {@link LONG_STRING} characters or more; `undefined` for any other message.
 */
export function longStringResultBytes(idJson: string, result: unknown): Buffer | undefined {
  const pieces = splitResult(`{"jsonrpc":"2.0","id":${idJson},"result":`, result);
  return pieces && writePieces(pieces);
}
