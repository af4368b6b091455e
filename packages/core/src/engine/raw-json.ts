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

/** Serializes one outgoing message to compact JSON (no newlines, so stdio framing holds). */
export function encodeMessage(message: EngineResponse | JsonRpcNotification): string {
  if ('result' in message && message.result instanceof RawJson) {
    return `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":${message.result.json}}`;
  }
  return JSON.stringify(message);
}

const RESULT_END = Buffer.from('}');

/**
 * Serializes one outgoing message to the UTF-8 bytes of its compact JSON. A pre-serialized result
 * is not encoded again: its cached bytes are copied once between the envelope's head and tail
 * (a 160 KB tools/list page costs a copy, not a stringify, a concatenation and an encode).
 */
export function encodeMessageBytes(message: EngineResponse | JsonRpcNotification): Buffer {
  if ('result' in message && message.result instanceof RawJson) {
    const head = Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":`, 'utf8');
    const page = message.result.bytes;
    return Buffer.concat([head, page, RESULT_END], head.length + page.length + 1);
  }
  return Buffer.from(JSON.stringify(message), 'utf8');
}

/** True for an error response. */
export function isErrorResponse(message: EngineResponse): message is JsonRpcErrorResponse {
  return 'error' in message;
}
