import { ResourceNotFoundError } from '../errors/protocol-errors.js';
import { errorResponse } from '../errors/to-json-rpc.js';
import type { JsonRpcErrorResponse, RequestId } from '../protocol/types.js';

/** -32002: resource not found, in revisions 2025-11-25 and earlier. */
export const LEGACY_RESOURCE_NOT_FOUND = -32002;

/**
 * Codes that exist only in 2026-07-28 (header mismatch, missing client capability, unsupported
 * version), each with the code a legacy session reports instead: 2025-11-25 has none of them.
 */
const MODERN_ONLY_CODES: ReadonlyMap<number, number> = new Map([
  [-32020, -32600],
  [-32021, -32602],
  [-32022, -32602],
]);

/**
 * The error response of a legacy session: the same typed errors, with the codes of the old
 * revisions. The one place where the legacy era's codes differ from the modern ones.
 */
export function legacyErrorResponse(id: RequestId | undefined, error: unknown): JsonRpcErrorResponse {
  const response = errorResponse(id, error);
  const code = error instanceof ResourceNotFoundError ? LEGACY_RESOURCE_NOT_FOUND : MODERN_ONLY_CODES.get(response.error.code);
  if (code !== undefined) response.error.code = code;
  return response;
}
