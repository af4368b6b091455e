/** Reserved `_meta` keys of MCP 2026-07-28 (all under the `io.modelcontextprotocol/` prefix). */
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

/** `progressToken` is the one request `_meta` key without a prefix. */
export const PROGRESS_TOKEN = 'progressToken';
