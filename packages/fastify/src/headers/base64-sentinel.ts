import { HeaderMismatchError } from '@decorum/core';

const PREFIX = '=?base64?';
const SUFFIX = '?=';
// Standard alphabet with the padding it requires; Buffer's own decoder would accept anything.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * True when a header value uses the sentinel `=?base64?…?=`. The markers are case-sensitive:
 * `=?BASE64?…?=` is a literal value (which then fails to match its body value).
 */
export function isBase64Sentinel(value: string): boolean {
  return value.length >= PREFIX.length + SUFFIX.length && value.startsWith(PREFIX) && value.endsWith(SUFFIX);
}

/**
 * The value a client meant: the sentinel decoded (standard base64 of UTF-8 bytes), anything else
 * as-is. Applies to `Mcp-Name` and `Mcp-Param-*` only. A sentinel whose content is not canonical
 * base64 or not UTF-8 is malformed: -32020 naming the header.
 */
export function decodeHeaderValue(headerName: string, value: string): string {
  if (!isBase64Sentinel(value)) return value;
  const encoded = value.slice(PREFIX.length, value.length - SUFFIX.length);
  const bytes = BASE64.test(encoded) ? Buffer.from(encoded, 'base64') : undefined;
  // Re-encoding catches non-canonical input (stray bits in the last character).
  if (!bytes || bytes.toString('base64') !== encoded) {
    throw new HeaderMismatchError(`Header mismatch: ${headerName} header carries malformed base64 inside =?base64?…?=`);
  }
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new HeaderMismatchError(`Header mismatch: ${headerName} header's =?base64?…?= value is not UTF-8`);
  }
}
