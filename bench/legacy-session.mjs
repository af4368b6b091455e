/**
 * A legacy (2025-11-25) client's session on an HTTP endpoint, as the bench's legacy workloads
 * open it: `initialize`, then `notifications/initialized`. Shared by run.mjs and profile.mjs.
 */
export const LEGACY_PROTOCOL = '2025-11-25';

/** The headers of a legacy client's POST before it has a session. */
export const LEGACY_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': LEGACY_PROTOCOL };

/**
 * Opens a session at `url` and gives the headers its requests carry (`Mcp-Session-Id` added), or
 * `undefined` when the endpoint mints no session (a stateless server).
 */
export async function openLegacySession(url, clientName = 'bench') {
  const init = {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: LEGACY_PROTOCOL, capabilities: {}, clientInfo: { name: clientName, version: '1.0.0' } },
  };
  const response = await fetch(url, { method: 'POST', headers: LEGACY_HEADERS, body: JSON.stringify(init) });
  await response.text();
  const session = response.headers.get('mcp-session-id');
  if (!session) return undefined;
  const headers = { ...LEGACY_HEADERS, 'mcp-session-id': session };
  await (await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
  return headers;
}
