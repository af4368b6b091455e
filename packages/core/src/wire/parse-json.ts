import { isLosslessNumber, parse as parseLossless } from 'lossless-json';
import sjson from 'secure-json-parse';
import { ParseError, RefusedMessageError } from '../errors/protocol-errors.js';
import type { RequestId } from '../protocol/types.js';
import { isJsonObject } from '../protocol/json-object.js';

/**
 * Fastify's default rule for request bodies, applied to every message on every transport: an own
 * `__proto__` key is refused (it would reach handlers that copy objects with `Object.assign` or
 * spread, and poison their prototypes); `constructor` keys are data (`{"constructor": "x"}` is
 * valid input). Only a text that could spell the key (see {@link mayHoldProtoKey}) goes through
 * secure-json-parse; the common path is `JSON.parse` alone.
 */
const POISONING = { protoAction: 'error', constructorAction: 'ignore' } as const;

/** secure-json-parse's message for a refused `__proto__` key. */
const FORBIDDEN_PROTO = 'Object contains forbidden prototype property';

type Plain = Record<string, unknown>;

/**
 * Whether a text (one message, or several lines of them) could spell a `__proto__` key. Each of
 * the key's nine characters is written as itself or as a `\uXXXX` escape (JSON has no other
 * escape for them), so a text with neither `__` nor `\u` cannot. Two scans for short strings,
 * cheaper than a call into secure-json-parse (its options, its own checks, then its regular
 * expression) on every message; a transport that reads many lines at once (stdio) scans them
 * together and tells {@link parseJson} so.
 */
export function mayHoldProtoKey(text: string): boolean {
  return text.includes('__') || text.includes('\\u');
}

/** A byte-order mark, which secure-json-parse skips and JSON.parse refuses. */
function startsWithBom(text: string): boolean {
  return text.charCodeAt(0) === 0xfeff;
}

/**
 * Parses one message's text. Malformed JSON, and an own `__proto__` key anywhere, are a -32700.
 *
 * An integer id outside ±2^53 (`9007199254740993`) cannot be a JS number without changing, so it
 * becomes a `bigint` with the exact value, and is echoed as the same digits; so does the
 * `requestId` of a notification (`notifications/cancelled`). Only such messages are parsed a
 * second time (by lossless-json, to read the digits); the common path checks one number.
 *
 * @param screened the caller found that {@link mayHoldProtoKey} is false for a text holding this one
 */
export function parseJson(text: string, screened = false): unknown {
  let message: unknown;
  try {
    message = startsWithBom(text) || (!screened && mayHoldProtoKey(text)) ? sjson.parse(text, undefined, POISONING) : JSON.parse(text);
  } catch (error) {
    if ((error as Error).message === FORBIDDEN_PROTO)
      throw new RefusedMessageError('Parse error: the message has a "__proto__" key, which is refused (prototype poisoning)', refusedId(text));
    throw new ParseError('Parse error: the message is not valid JSON');
  }
  if (typeof message !== 'object' || message === null) return message;
  const { id, params } = message as Plain;
  if (typeof id === 'number') {
    if (!Number.isSafeInteger(id) && Number.isInteger(id)) (message as Plain).id = exactId(text, id);
  } else if (id === undefined && typeof params === 'object' && params !== null) {
    const requestId = (params as Plain).requestId;
    if (typeof requestId === 'number' && !Number.isSafeInteger(requestId) && Number.isInteger(requestId)) {
      (params as Plain).requestId = exactInteger(text, (m) => (m.params as Plain | undefined)?.requestId) ?? requestId;
    }
  }
  return message;
}

/** An integer id beyond ±2^53 as the exact bigint its digits spell (the number itself when they cannot be read). */
function exactId(text: string, id: number): number | bigint {
  return exactInteger(text, (m) => m.id) ?? id;
}

/**
 * The id of a message refused for a `__proto__` key, so that its answer can name it; `undefined`
 * for a notification or an id that is not a string or integer. Only the refusal pays for this
 * second parse: `JSON.parse` makes `__proto__` an ordinary own key, and only `id` is read.
 */
function refusedId(text: string): RequestId | undefined {
  let message: unknown;
  try {
    message = JSON.parse(startsWithBom(text) ? text.slice(1) : text);
  } catch {
    return undefined;
  }
  if (!isJsonObject(message)) return undefined;
  const id = (message as Plain).id;
  if (typeof id === 'string' || Number.isSafeInteger(id)) return id as RequestId;
  return typeof id === 'number' && Number.isInteger(id) ? exactId(text, id) : undefined;
}

/** The exact value of the number `pick` finds, as a bigint, when its text is plain integer digits. */
function exactInteger(text: string, pick: (message: Plain) => unknown): bigint | undefined {
  let number: unknown;
  try {
    number = pick(parseLossless(text) as Plain);
  } catch {
    return undefined; // e.g. a duplicate key: JSON.parse took the last one, keep what it read
  }
  return isLosslessNumber(number) && /^-?\d+$/.test(number.value) ? BigInt(number.value) : undefined;
}
