import { McpProtocolError } from './mcp-protocol-error.js';

/**
 * The JSON-RPC error a task's call ended with, answered again as it was stored: legacy
 * `tasks/result` returns "exactly what the underlying request would have returned" (L§Result Retrieval).
 */
export class StoredCallError extends McpProtocolError {
  constructor(
    readonly code: number,
    message: string,
    data?: unknown,
  ) {
    super(message, data);
  }
}
