import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';

/** A raw HTTP endpoint on 127.0.0.1 answering with whatever `reply` decides: for servers that misbehave on purpose. */
export async function rawEndpoint(
  reply: (body: any, headers: IncomingHttpHeaders, res: ServerResponse, method: string) => void,
): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => reply(text ? JSON.parse(text) : undefined, req.headers, res, req.method!));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`, server };
}

/** A modern `server/discover` answer (tools only, uncacheable). */
export const discoverAnswer = (id: unknown) => ({
  jsonrpc: '2.0',
  id,
  result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, ttlMs: 0, cacheScope: 'public' },
});
