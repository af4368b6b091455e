import type { JsonRpcErrorResponse, RequestId, Result } from '../protocol/types.js';

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

/** True for an error response. */
export function isErrorResponse(message: EngineResponse): message is JsonRpcErrorResponse {
  return 'error' in message;
}
