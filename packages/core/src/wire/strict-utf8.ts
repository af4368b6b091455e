import { isUtf8 } from 'node:buffer';

/**
 * The text of `bytes[start, end)` when those bytes are valid UTF-8; `undefined` when they are not
 * (a JSON-RPC message is UTF-8, RFC 8259 §8.1, and is never decoded lossily).
 *
 * Decoding puts U+FFFD in place of every invalid sequence, so a text without one came from valid
 * UTF-8: nearly every message, answered with no second pass (V8 finds at once that a text whose
 * characters all fit one byte holds no U+FFFD). Only a text with one is checked byte by byte, as
 * the character may have been sent. Checking every buffer first would cost every read a view of
 * the bytes and a native call (docs/perf-notes.md, "Figures behind source comments").
 */
export function strictUtf8(bytes: Buffer, start = 0, end = bytes.length): string | undefined {
  const text = bytes.toString('utf8', start, end);
  return !text.includes('\uFFFD') || isUtf8(bytes.subarray(start, end)) ? text : undefined;
}
