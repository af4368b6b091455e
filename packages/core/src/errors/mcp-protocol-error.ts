/**
 * Base of every error that has a meaning on the wire. Each subclass is one JSON-RPC error
 * of MCP 2026-07-28; `errors/to-json-rpc.ts` is the one place that turns them into responses.
 */
export abstract class McpProtocolError extends Error {
  /** The JSON-RPC error code. */
  abstract readonly code: number;
  /** Optional `error.data`. */
  readonly data?: unknown;

  constructor(message: string, data?: unknown) {
    super(message);
    this.name = new.target.name;
    if (data !== undefined) this.data = data;
  }
}
