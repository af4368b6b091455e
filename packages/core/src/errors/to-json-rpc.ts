import type { JsonRpcErrorObject, JsonRpcErrorResponse, RequestId } from '../protocol/types.js';
import { InternalError, McpProtocolError, RefusedMessageError } from './protocol-errors.js';

/**
 * Turns anything thrown into a JSON-RPC error object. Typed protocol errors keep their code,
 * message and data; anything else becomes a generic -32603 so that no stack or internal
 * message reaches a client.
 */
export function toJsonRpcError(error: unknown): JsonRpcErrorObject {
  const known = error instanceof McpProtocolError ? error : new InternalError();
  const out: JsonRpcErrorObject = { code: known.code, message: known.message };
  if (known.data !== undefined) out.data = known.data;
  return out;
}

/**
 * A full error response; `id` is left out when it could not be read — by the caller, or, for a
 * refused message the caller never got, by the parser ({@link RefusedMessageError}).
 */
export function errorResponse(id: RequestId | undefined, error: unknown): JsonRpcErrorResponse {
  const response: JsonRpcErrorResponse = { jsonrpc: '2.0', error: toJsonRpcError(error) };
  const answered = id ?? (error instanceof RefusedMessageError ? error.requestId : undefined);
  if (answered !== undefined) response.id = answered;
  return response;
}

/** True when `error` is one the engine raised on purpose (and so safe to show). */
export function isProtocolError(error: unknown): error is McpProtocolError {
  return error instanceof McpProtocolError;
}
