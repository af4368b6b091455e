import type { IncomingHttpHeaders } from 'node:http';
import { ParseError } from '@decorum/core';
import { strictUtf8 } from '@decorum/core/transport';
import type { FastifyRequest } from 'fastify';
import { HttpRefusal } from './refusal.js';

/**
 * Strict bytes: a JSON-RPC body is UTF-8 JSON (RFC 8259 §8.1), sent as it is. A body that is not
 * valid UTF-8 is a -32700 (it used to be decoded lossily, U+FFFD in place of the bad bytes); a
 * `charset` other than UTF-8 and any `Content-Encoding` other than `identity` are refused with 415
 * before the body is read (RFC 9110 §15.5.16), with `Accept-Encoding: identity` saying what is taken.
 */

/** The body of a request whose bytes are not valid UTF-8. */
const INVALID_UTF8: unique symbol = Symbol('invalid UTF-8');

/** The JSON content-type parser: the body stays text (core's parser reports -32700 itself), once its bytes are checked. */
export function utf8Body(_request: FastifyRequest, body: Buffer, done: (err: Error | null, body?: unknown) => void): void {
  done(null, strictUtf8(body) ?? INVALID_UTF8);
}

/** The text to parse: what `utf8Body` kept; bytes that were not UTF-8 are a -32700. */
export function bodyText(body: unknown): string {
  if (typeof body === 'string') return body;
  if (body === INVALID_UTF8) throw new ParseError('Parse error: the body is not valid UTF-8');
  return '';
}

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)"?/i;
const UTF8_NAMES = new Set(['utf-8', 'utf8']);

/** 415 for a charset other than UTF-8 or a content coding other than identity; header checks only. */
export function checkBodyEncoding(headers: IncomingHttpHeaders, contentType: string): HttpRefusal | undefined {
  if (contentType.length > 16 && contentType.includes('charset')) {
    const charset = CHARSET.exec(contentType)?.[1]?.toLowerCase();
    if (charset !== undefined && !UTF8_NAMES.has(charset)) {
      return new HttpRefusal('unsupported-media-type', `Unsupported Media Type: JSON-RPC bodies are UTF-8 (got charset=${charset})`);
    }
  }
  const coding = headers['content-encoding'];
  if (coding !== undefined && coding.trim().toLowerCase() !== 'identity') {
    return new HttpRefusal(
      'unsupported-media-type',
      `Unsupported Media Type: Content-Encoding ${JSON.stringify(coding)} is not accepted; send the body as it is (identity)`,
      { 'accept-encoding': 'identity' },
    );
  }
  return undefined;
}
