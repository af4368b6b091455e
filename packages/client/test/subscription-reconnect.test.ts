import { connect } from '@decorum/client';
import { discoverAnswer, rawEndpoint } from './support/raw-endpoint.js';

const ack = { jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: { toolsListChanged: true } } };

describe('a subscription whose listen stream drops', () => {
  test('listens again, yields `reconnected`, and drops the cached lists it watches (changes may have passed unseen)', async () => {
    let listens = 0;
    let lists = 0;
    const { url, server } = await rawEndpoint((body, _headers, res) => {
      if (body.method === 'subscriptions/listen') {
        listens++;
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(`data: ${JSON.stringify(ack)}\n\n`);
        // The first stream ends without the listen's answer: a drop, not a graceful end (L-10).
        if (listens === 1) res.end();
        return;
      }
      res.setHeader('content-type', 'application/json');
      if (body.method === 'server/discover') return res.end(JSON.stringify(discoverAnswer(body.id)));
      lists++;
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: body.id,
          result: { resultType: 'complete', ttlMs: 3_600_000, cacheScope: 'public', tools: [{ name: 'echo', inputSchema: { type: 'object' } }] },
        }),
      );
    });
    const client = await connect({ url });
    try {
      await client.listTools();
      await client.listTools();
      expect(lists).toBe(1);
      const subscription = client.subscribe({ toolsListChanged: true });
      const events = subscription[Symbol.asyncIterator]();
      expect((await events.next()).value).toEqual({ type: 'reconnected' });
      expect(listens).toBe(2);
      await client.listTools();
      expect(lists).toBe(2);
      await subscription.close();
    } finally {
      await client.close();
      server.closeAllConnections();
      server.close();
    }
  });
});
