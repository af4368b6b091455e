// A hostile legacy server against the client's standalone GET stream (#48, bug 5): it answers each
// GET with one event and `retry: 0`, then closes. The client used to reconnect hundreds of times
// a second and keep a listener per reconnection; now it waits the floor at least, and keeps nothing.
import { createServer, type Server } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { connect, type McpClient } from '@decorum/client';
import { until } from '@decorum-internal/test-support';
import { RETRY_FLOOR_MS } from '../src/transports/session-stream.js';

/** The hostile server; `gets` holds the time each GET arrived. */
async function oneEventPerConnection(): Promise<{ url: string; server: Server; gets: number[] }> {
  const gets: number[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      if (req.method === 'GET') {
        gets.push(performance.now());
        const event = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: gets.length } };
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        return void res.end(`retry: 0\nid: ${gets.length}\ndata: ${JSON.stringify(event)}\n\n`);
      }
      const message = text ? JSON.parse(text) : undefined;
      if (message?.method !== 'initialize') return void res.writeHead(202).end();
      res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'hostile' });
      const result = { protocolVersion: '2025-11-25', capabilities: { logging: {} }, serverInfo: { name: 'hostile', version: '1' } };
      res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`, server, gets };
}

describe('a legacy server that sends one event per GET with `retry: 0`', () => {
  let hostile: Awaited<ReturnType<typeof oneEventPerConnection>>;
  let client: McpClient | undefined;
  beforeEach(async () => {
    hostile = await oneEventPerConnection();
  });
  afterEach(async () => {
    await client?.close();
    hostile.server.closeAllConnections();
    hostile.server.close();
  });

  test(`the client reconnects no sooner than the floor (${RETRY_FLOOR_MS} ms) each time`, async () => {
    expect(RETRY_FLOOR_MS).toBeGreaterThanOrEqual(100);
    client = await connect({ url: hostile.url }, { era: 'legacy' });
    await until('four GET streams', () => hostile.gets.length >= 4);
    const gaps = hostile.gets.slice(1).map((at, i) => at - hostile.gets[i]);
    // A few ms below the floor at most: the two clocks are read on either side of a socket.
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(RETRY_FLOOR_MS - 20);
  });

  test('each reconnection leaves nothing behind: the signals of earlier GETs are collected', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const getSignals: WeakRef<AbortSignal>[] = [];
    const recording: typeof fetch = (input, init) => {
      if (init?.method === 'GET' && init.signal) getSignals.push(new WeakRef(init.signal));
      return fetch(input, init);
    };
    client = await connect({ url: hostile.url, fetch: recording }, { era: 'legacy' });
    await until('six GET streams', () => getSignals.length >= 6);
    // fetch lets go of a request's signal once the request is collected: a few rounds of collection.
    // (No deref() until then: it would keep the signals alive through the next collection.)
    for (let round = 0; round < 10; round++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const alive = getSignals.filter((ref) => ref.deref() !== undefined).length;
    // The current GET's signal, and the one it replaced if that one ended during the collections; one
    // kept per reconnection (the leak) leaves every earlier GET's alive.
    expect(alive).toBeLessThanOrEqual(2);
  });
});
