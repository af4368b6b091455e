import type { IncomingHttpHeaders } from 'node:http';
import { HeaderMismatchError } from '@decorum/core';

// RFC 9110 field-value characters once surrounding whitespace is gone: visible ASCII, space, tab.
// Node's parser already refuses control characters; this also refuses bytes ≥ 0x80, which Node
// passes through as latin1 and which clients must send base64-encoded instead.
const FIELD_VALUE = /^[\t\x20-\x7e]*$/;
const SURROUNDING_WHITESPACE = /^[\t ]+|[\t ]+$/g;

/**
 * The common case, as one scan instead of a replace and a test (each of a request's three MCP
 * headers went through both; docs/perf-notes.md, "Figures behind source comments"): a value that already is what
 * {@link readHeader} returns — no surrounding space or tab, only visible ASCII, space and tab.
 */
function isCleanFieldValue(value: string): boolean {
  const last = value.length - 1;
  if (last >= 0 && (isSpaceOrTab(value.charCodeAt(0)) || isSpaceOrTab(value.charCodeAt(last)))) return false;
  for (let i = 0; i <= last; i++) {
    const c = value.charCodeAt(i);
    if (c > 0x7e || (c < 0x20 && c !== 0x09)) return false;
  }
  return true;
}

function isSpaceOrTab(c: number): boolean {
  return c === 0x20 || c === 0x09;
}

/**
 * One header's value as HTTP defines it: found by its lower-cased name (names are
 * case-insensitive; Node lower-cases them), surrounding spaces and tabs stripped, values kept
 * case-sensitive. `undefined` when absent; -32020 naming the header when it holds characters that
 * are not allowed in a field value.
 */
export function readHeader(headers: IncomingHttpHeaders, key: string, displayName: string): string | undefined {
  const raw = headers[key];
  if (raw === undefined) return undefined;
  if (typeof raw === 'string' && isCleanFieldValue(raw)) return raw;
  const value = (Array.isArray(raw) ? raw.join(', ') : raw).replace(SURROUNDING_WHITESPACE, '');
  if (!FIELD_VALUE.test(value)) {
    throw new HeaderMismatchError(
      `Header mismatch: ${displayName} header contains characters not allowed in an HTTP field value (send such values as =?base64?…?=)`,
    );
  }
  return value;
}

const MAX_SHOWN = 120;

/** A value quoted for an error message, shortened so messages stay one short sentence. */
export function quoted(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return `'${text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text}'`;
}

/** The spec's message shape: `Header mismatch: Mcp-Name header value 'foo' does not match body value 'bar'`. */
export function mismatch(displayName: string, headerValue: string, bodyValue: unknown): HeaderMismatchError {
  return new HeaderMismatchError(`Header mismatch: ${displayName} header value ${quoted(headerValue)} does not match body value ${quoted(bodyValue)}`);
}

/** A required header that is absent. */
export function missing(displayName: string, mirrors: string): HeaderMismatchError {
  return new HeaderMismatchError(`Header mismatch: required header ${displayName} is missing (it must carry ${mirrors})`);
}
