import type { JsonRpcErrorResponse, JsonRpcNotification, RequestId, Result } from '../protocol/types.js';

/**
 * A result serialized ahead of time (list pages are built once per registry version), spliced
 * into the response text as-is instead of being stringified per request.
 */
export class RawJson {
  constructor(readonly json: string) {}
}

/** A result response whose result may be pre-serialized. */
export interface EngineResultResponse {
  jsonrpc: '2.0';
  id: RequestId;
  result: Result | RawJson;
}

export type EngineResponse = EngineResultResponse | JsonRpcErrorResponse;

/** Serializes one outgoing message to compact JSON (no newlines, so stdio framing holds). */
export function encodeMessage(message: EngineResponse | JsonRpcNotification): string {
  if ('result' in message && message.result instanceof RawJson) {
    return `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":${message.result.json}}`;
  }
  return JSON.stringify(message);
}

/** True for an error response. */
export function isErrorResponse(message: EngineResponse): message is JsonRpcErrorResponse {
  return 'error' in message;
}
