import { connect, McpClientError, SubscriptionEndedError } from '@decorum/client';
import { discoverAnswer, rawEndpoint } from './support/raw-endpoint.js';

describe('a subscription that ends before the server acknowledges it', () => {
  test('`acknowledged` rejects with SubscriptionEndedError (DECORUM_ERR_SUBSCRIPTION_ENDED)', async () => {
    let listening!: () => void;
    const listened = new Promise<void>((resolve) => (listening = resolve));
    const { url, server } = await rawEndpoint((body, _headers, res) => {
      if (body.method === 'subscriptions/listen') {
        // The stream opens, and no acknowledgement ever comes.
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.flushHeaders();
        listening();
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(discoverAnswer(body.id)));
    });
    const client = await connect({ url });
    try {
      const subscription = client.subscribe({ toolsListChanged: true });
      await listened;
      await subscription.close();
      const error = await subscription.acknowledged.then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(SubscriptionEndedError);
      expect(error).toBeInstanceOf(McpClientError);
      expect(error).toMatchObject({ code: 'DECORUM_ERR_SUBSCRIPTION_ENDED', message: 'The subscription ended before it was acknowledged' });
    } finally {
      await client.close();
      server.closeAllConnections();
      server.close();
    }
  });
});
