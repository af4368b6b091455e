import type { StdioProcess } from './stdio-process.js';

/** The `initialize` params of a legacy client over stdio. */
export function initializeParams(capabilities: object = {}, protocolVersion = '2025-11-25') {
  return { protocolVersion, capabilities, clientInfo: { name: 'legacy-stdio-test', version: '1' } };
}

/**
 * Opens the legacy session of a stdio process, as a 2025-11-25-era client does: `initialize`
 * (id `init`), then `notifications/initialized`. Resolves with the initialize result.
 */
export async function openLegacySession(server: StdioProcess, capabilities: object = {}, protocolVersion?: string): Promise<Record<string, any>> {
  const answer = await server.request({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: initializeParams(capabilities, protocolVersion) });
  if (!answer.result) throw new Error(`initialize failed: ${JSON.stringify(answer)}`);
  server.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return answer.result;
}

/** A legacy `tools/call` request (no modern `_meta`; a progress token when given). */
export function legacyCall(id: string | number, name: string, args: object = {}, progressToken?: string) {
  return {
    jsonrpc: '2.0' as const,
    id,
    method: 'tools/call',
    params: { name, arguments: args, ...(progressToken === undefined ? {} : { _meta: { progressToken } }) },
  };
}
