// The official v1 client's transport (@modelcontextprotocol/sdk 1.x) for a client script:
// `stdio` spawns `target args…` (server logs at warn, its stderr ignored); `http` is Streamable
// HTTP to the URL `target`.
export async function v1Transport(kind, target, args = []) {
  if (kind === 'stdio') {
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    return new StdioClientTransport({ command: target, args, env: { ...process.env, DECORUM_LOG_LEVEL: 'warn' }, stderr: 'ignore' });
  }
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  return new StreamableHTTPClientTransport(new URL(target));
}
