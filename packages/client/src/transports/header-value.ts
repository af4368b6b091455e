const PREFIX = '=?base64?';
const SUFFIX = '?=';
// Printable ASCII only; anything else (non-ASCII, control characters) must be wrapped (H-20).
const PLAIN = /^[\x20-\x7E]*$/;

/**
 * A value as an MCP header carries it (H-20): integers in decimal, booleans as `true`/`false`,
 * strings as-is when they are plain header text, else as `=?base64?<UTF-8 base64>?=` (non-ASCII,
 * control characters, leading or trailing space or tab, or text that looks like the sentinel).
 */
export function encodeHeaderValue(value: string | number | boolean): string {
  if (typeof value !== 'string') return String(value);
  const unsafe = !PLAIN.test(value) || /^[ \t]|[ \t]$/.test(value) || (value.startsWith(PREFIX) && value.endsWith(SUFFIX));
  return unsafe ? `${PREFIX}${Buffer.from(value, 'utf8').toString('base64')}${SUFFIX}` : value;
}
