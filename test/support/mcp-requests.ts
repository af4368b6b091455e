/** Builders for well-formed 2026-07-28 requests, shared by every suite that speaks the protocol. */
export const PROTOCOL_VERSION = '2026-07-28';

export interface MetaOverrides {
  capabilities?: Record<string, unknown>;
  progressToken?: string | number;
  logLevel?: string;
  extra?: Record<string, unknown>;
}

/** The required `_meta` of every request. */
export function meta(overrides: MetaOverrides = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {
    'io.modelcontextprotocol/protocolVersion': PROTOCOL_VERSION,
    'io.modelcontextprotocol/clientCapabilities': overrides.capabilities ?? {},
    'io.modelcontextprotocol/clientInfo': { name: 'decorum-tests', version: '0.0.0' },
    ...overrides.extra,
  };
  if (overrides.progressToken !== undefined) out.progressToken = overrides.progressToken;
  if (overrides.logLevel !== undefined) out['io.modelcontextprotocol/logLevel'] = overrides.logLevel;
  return out;
}

/** A request with `_meta` filled in. */
export function request(id: string | number, method: string, params: Record<string, unknown> = {}, overrides: MetaOverrides = {}) {
  return { jsonrpc: '2.0' as const, id, method, params: { ...params, _meta: meta(overrides) } };
}
