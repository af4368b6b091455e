import { resultResponseJson, scalarJson, type LongTextJson } from './result-json.js';
import type { JsonRpcErrorResponse, JsonRpcNotification, RequestId, Result } from '../protocol/types.js';

/**
 * A result serialized ahead of time (list pages are built once per registry version), spliced
 * into the response text as-is instead of being stringified per request.
 */
export class RawJson {
  /** The UTF-8 bytes of {@link json}, encoded once, on first use. */
  private encoded: Buffer | undefined;

  constructor(readonly json: string) {}

  get bytes(): Buffer {
    return (this.encoded ??= Buffer.from(this.json, 'utf8'));
  }
}

/** A result response whose result may be pre-serialized. */
export interface EngineResultResponse {
  jsonrpc: '2.0';
  id: RequestId;
  result: Result | RawJson;
}

/** What the engine answers a request with: a result (possibly pre-serialized) or an error. */
export type EngineResponse = EngineResultResponse | JsonRpcErrorResponse;

/**
 * Serializes one outgoing message to compact JSON (no newlines, so stdio framing holds). With
 * `longTextChars`, a result with a content block's plain ASCII string of at least that length
 * comes in pieces ({@link LongTextJson}).
 */
export function encodeMessage(message: EngineResponse | JsonRpcNotification): string;
export function encodeMessage(message: EngineResponse | JsonRpcNotification, longTextChars: number): string | LongTextJson;
export function encodeMessage(message: EngineResponse | JsonRpcNotification, longTextChars = Infinity): string | LongTextJson {
  if ('result' in message && message.result instanceof RawJson) {
    return `{"jsonrpc":"2.0","id":${idJson(message.id)},"result":${message.result.json}}`;
  }
  // A result is written member by member (result-json.ts); an error or a notification is small and rare.
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
 * Serializes one outgoing message to the UTF-8 bytes of its compact JSON. A pre-serialized result
 * is not encoded again: its cached bytes are copied once between the envelope's head and tail
 * (a 160 KB tools/list page costs a copy, not a stringify, a concatenation and an encode).
 */
export function encodeMessageBytes(message: EngineResponse | JsonRpcNotification): Buffer {
  const body = encodeMessageBody(message);
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
}

/**
 * The UTF-8 bytes of an answer whose result is a pre-serialized page, in three pieces: the
 * envelope's head (made per request), the page's bytes (made once, shared) and the closing brace.
 * A transport that writes them one after another sends the page without copying it.
 */
export type PageAnswerBytes = readonly [head: Buffer, page: Buffer, tail: Buffer];

/** The {@link PageAnswerBytes} of an answer with a pre-serialized result; `undefined` for any other message. */
function pageAnswerBytes(message: EngineResponse | JsonRpcNotification): PageAnswerBytes | undefined {
  if (!('result' in message) || !(message.result instanceof RawJson)) return undefined;
  return [Buffer.from(`{"jsonrpc":"2.0","id":${idJson(message.id)},"result":`, 'utf8'), message.result.bytes, RESULT_END];
}

/**
 * The body of an HTTP JSON answer: the UTF-8 bytes of a pre-serialized page, which are made once
 * (its envelope copied around them), else the text. Node writes a string body together with the
 * response head, with no Buffer made for it: ~5,000 instructions fewer a tools/call (callgrind)
 * than encoding it first, and for a long text no buffer left for the garbage collector to free
 * (see long-string-json.ts).
 *
 * With `piecesFrom`, a large answer comes in pieces, for a transport that writes them one after
 * another: a page of at least that many bytes as its {@link PageAnswerBytes} (not copied into one
 * body), a content block's plain ASCII text of at least that many characters as a
 * {@link LongTextJson} (not joined into one message string; see {@link encodeMessage}).
 */
export function encodeMessageBody(message: EngineResponse | JsonRpcNotification): string | Buffer;
export function encodeMessageBody(message: EngineResponse | JsonRpcNotification, piecesFrom: number): AnswerBody;
export function encodeMessageBody(message: EngineResponse | JsonRpcNotification, piecesFrom = Infinity): AnswerBody {
  const pieces = pageAnswerBytes(message);
  if (pieces === undefined) return encodeMessage(message, piecesFrom);
  return pieces[1].length >= piecesFrom ? pieces : Buffer.concat(pieces, pieces[0].length + pieces[1].length + pieces[2].length);
}

/** An HTTP JSON answer's body from {@link encodeMessageBody}: whole (text or bytes), or in pieces. */
export type AnswerBody = string | Buffer | PageAnswerBytes | LongTextJson;

/** True for an error response. */
export function isErrorResponse(message: EngineResponse): message is JsonRpcErrorResponse {
  return 'error' in message;
}
