import type { RequestId } from './types.js';

/** The request-id rule of MCP's JSON-RPC: a string or an integer (a bigint beyond 2^53), never null. */
export function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value)) || typeof value === 'bigint';
}
