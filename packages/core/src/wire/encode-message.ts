import { errorResponse } from '../errors/to-json-rpc.js';
import type { JsonRpcNotification, RequestId } from '../protocol/types.js';
import { exactIntegersJson } from './exact-integers.js';
import { RawJson, type EngineResponse } from './raw-json.js';
import { resultResponseJson, scalarJson, type LongTextJson } from './result-json.js';

/** A message encoded as one string of compact JSON (no newlines, so stdio framing holds). */
export interface TextEncoding {
  readonly body?: false;
  /**
   * Every `bigint` in the message written as its exact digits, not only a top-level `id` (which
   * always is): for the messages of a `subscriptions/listen` whose id is beyond 2^53, which carry
   * it in `_meta` and in a teardown's `requestId`. Anywhere else a bigint is a value JSON cannot hold.
   */
  readonly exactIntegers?: boolean;
}

/**
 * A message encoded as the body of an HTTP JSON answer: the UTF-8 bytes of a pre-serialized page,
 * which are made once (its envelope copied around them), else the text. Node writes a string body
 * together with the response head, with no Buffer made for it.
 */
export interface BodyEncoding {
  readonly body: true;
  /**
   * From this size a large answer comes in pieces, for a transport that writes them one after
   * another: a page of at least that many bytes as its {@link PageAnswerBytes} (not copied into one
   * body), a content block's plain ASCII text of at least that many characters as a
   * {@link LongTextJson} (not joined into one message string).
   */
  readonly piecesFrom?: number;
  /** As {@link TextEncoding.exactIntegers}. */
  readonly exactIntegers?: boolean;
}

/** How {@link encodeMessage} writes a message; made once (a constant, or at start-up), not per message. */
export type Encoding = TextEncoding | BodyEncoding;

/**
 * The UTF-8 bytes of an answer whose result is a pre-serialized page, in three pieces: the
 * envelope's head (made per request), the page's bytes (made once, shared) and the closing brace.
 * A transport that writes them one after another sends the page without copying it.
 */
export type PageAnswerBytes = readonly [head: Buffer, page: Buffer, tail: Buffer];

/** An encoded message: text, the bytes of an HTTP body, or (with `piecesFrom`) an answer in pieces. */
export type AnswerBody = string | Buffer | PageAnswerBytes | LongTextJson;

/** Told about a message JSON could not hold, so the transport can log it (its details never leave). */
export type UnserializableListener = (error: unknown, message: EngineResponse | JsonRpcNotification) => void;

/**
 * Serializes one outgoing message: the one encoder every transport writes with.
 *
 * A result is written member by member (result-json.ts); a pre-serialized one ({@link RawJson}) is
 * spliced in as it is; a `bigint` id (an integer beyond ±2^53) as its exact digits.
 *
 * Without `onUnserializable`, a message JSON cannot hold (a `BigInt`, a cycle in a handler's
 * result) throws. With it, the listener is told and an answer becomes a -32603 error for the same
 * id — every request still gets its answer, and a stream that ends with it still ends — while a
 * notification is dropped (`undefined`). The `try` costs nothing on the common path.
 */
export function encodeMessage(message: EngineResponse | JsonRpcNotification, encoding?: TextEncoding): string;
export function encodeMessage(message: EngineResponse, encoding: TextEncoding | undefined, onUnserializable: UnserializableListener): string;
export function encodeMessage(
  message: EngineResponse | JsonRpcNotification,
  encoding: TextEncoding | undefined,
  onUnserializable: UnserializableListener,
): string | undefined;
export function encodeMessage(message: EngineResponse, encoding: BodyEncoding & { piecesFrom: number }, onUnserializable?: UnserializableListener): AnswerBody;
export function encodeMessage(message: EngineResponse, encoding: BodyEncoding, onUnserializable?: UnserializableListener): string | Buffer;
export function encodeMessage(
  message: EngineResponse | JsonRpcNotification,
  encoding?: Encoding,
  onUnserializable?: UnserializableListener,
): AnswerBody | undefined {
  try {
    return encoding?.body === true ? bodyOf(message, encoding.piecesFrom ?? Infinity) : messageJson(message, Infinity);
  } catch (error) {
    const exact = encoding?.exactIntegers === true ? exactIntegersJson(message) : undefined;
    if (exact !== undefined) return exact;
    if (onUnserializable === undefined) throw error;
    onUnserializable(error, message);
    return 'method' in message ? undefined : messageJson(errorResponse(message.id, error), Infinity);
  }
}

/** The compact JSON of a message; a content block's long plain ASCII text from `longTextChars` on set apart. */
function messageJson(message: EngineResponse | JsonRpcNotification, longTextChars: number): string | LongTextJson {
  if ('result' in message && message.result instanceof RawJson) {
    return `{"jsonrpc":"2.0","id":${idJson(message.id)},"result":${message.result.json}}`;
  }
  // An error or a notification is small and rare: JSON.stringify.
  if ('result' in message) {
    const json = resultResponseJson(idJson(message.id), message.result, longTextChars);
    if (json !== undefined) return json;
  }
  if ('id' in message && typeof message.id === 'bigint') return withExactId(message as EngineResponse & { id: bigint });
  return JSON.stringify(message);
}

/** The JSON of an id: a bigint (an integer beyond ±2^53) as its exact digits. */
function idJson(id: RequestId): string {
  return typeof id === 'bigint' ? id.toString() : scalarJson(id);
}

/** JSON cannot stringify a bigint: the id is written as digits, the rest as usual (key order does not matter). */
function withExactId(message: EngineResponse & { id: bigint }): string {
  const { id, ...rest } = message;
  return `{"id":${id.toString()},${JSON.stringify(rest).slice(1)}`;
}

const RESULT_END = Buffer.from('}');

/**
 * An HTTP JSON answer's body. A pre-serialized result is not encoded again: its cached bytes are
 * copied once between the envelope's head and tail (a 160 KB tools/list page costs a copy, not a
 * stringify, a concatenation and an encode), or, from `piecesFrom` bytes, not copied at all.
 */
function bodyOf(message: EngineResponse | JsonRpcNotification, piecesFrom: number): AnswerBody {
  if (!('result' in message) || !(message.result instanceof RawJson)) return messageJson(message, piecesFrom);
  const pieces: PageAnswerBytes = [Buffer.from(`{"jsonrpc":"2.0","id":${idJson(message.id)},"result":`, 'utf8'), message.result.bytes, RESULT_END];
  return pieces[1].length >= piecesFrom ? pieces : Buffer.concat(pieces, pieces[0].length + pieces[1].length + pieces[2].length);
}
