import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect } from '@decorum/client';

/**
 * A 2025-11-25 server that closes the tools/call stream after a priming event (id + retry) and
 * delivers the answer only on the GET stream resumed with Last-Event-ID.
 */
async function resumingServer() {
  const seen: { lastEventId?: string; closedAt?: number; resumedAt?: number } = {};
  let pendingId: unknown;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'GET') {
      const lastEventId = req.headers['last-event-id'];
      if (typeof lastEventId !== 'string') return void res.writeHead(405).end();
      seen.lastEventId = lastEventId;
      seen.resumedAt = performance.now();
      res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 's1' });
      res.end(`id: e2\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: pendingId, result: { content: [{ type: 'text', text: 'resumed' }] } })}\n\n`);
      return;
    }
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      if (!text) return void res.writeHead(200).end(); // DELETE: the session ends
      const message = JSON.parse(text);
      if (message.method === 'server/discover') return void res.writeHead(404).end();
      if (message.method === 'initialize') {
        res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 's1' });
        return void res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: message.id,
            result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'resuming', version: '1' } },
          }),
        );
      }
      if (message.id === undefined) return void res.writeHead(202).end();
      pendingId = message.id;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 's1' });
      res.end('id: e1\nretry: 200\ndata: \n\n', () => (seen.closedAt = performance.now()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`, seen, close: () => new Promise((r) => server.close(r)) };
}

describe('legacy SSE resumability', () => {
  test('a stream closed before its answer is resumed with GET + Last-Event-ID after the retry delay', async () => {
    const server = await resumingServer();
    const client = await connect({ url: server.url }, { era: 'legacy' });
    try {
      const result = await client.callTool('anything', {}, { timeoutMs: 5000 });
      expect(result.content[0]).toMatchObject({ text: 'resumed' });
      expect(server.seen.lastEventId).toBe('e1');
      expect(server.seen.resumedAt! - server.seen.closedAt!).toBeGreaterThanOrEqual(150);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
