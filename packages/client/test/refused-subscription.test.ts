// A subscription the server refuses (#48, bug 8): a JSON-RPC error is the server's final answer,
// so `acknowledged` rejects with it, the subscription ends, and nothing is sent again.
import type { IncomingMessage } from 'node:http';
import { InvalidParamsError, MethodNotFoundError } from '@decorum/core';
import { connect, type SubscriptionFilter } from '@decorum/client';
import { LiveServer } from '@decorum-internal/test-support/fixtures';
import { fixture, serveHttp } from './support/servers.js';

/** `promise`, or a rejection saying it was still pending after `ms`: a refusal must settle, not hang. */
function within<T>(promise: Promise<T>, ms = 5000): Promise<T> {
  return Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still pending after ${ms} ms`)), ms).unref())]);
}

/** Longer than the first two retry steps (100 + 200 ms): a subscription that still retried would have sent again by then. */
const pastRetries = () => new Promise((resolve) => setTimeout(resolve, 500));

test('legacy: the official SDK v1 server declares resources.subscribe without a handler (-32601): acknowledged rejects, and resources/subscribe went once', async () => {
  const client = await connect(fixture('sdk-v1-unhandled-subscribe.mjs'));
  try {
    expect(client.era).toBe('legacy');
    expect(client.serverCapabilities.resources?.subscribe).toBe(true);
    const subscription = client.subscribe({ resourceSubscriptions: ['note://1'] });
    const refusal = await within(subscription.acknowledged).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(MethodNotFoundError);
    expect(refusal).toMatchObject({ code: -32601 });
    await expect(within(subscription[Symbol.asyncIterator]().next())).rejects.toBe(refusal);
    await pastRetries();
    const attempts = await client.callTool('subscribe_attempts');
    expect(attempts.content).toEqual([{ type: 'text', text: '1' }]);
  } finally {
    await client.close();
  }
});

test('modern: subscriptions/listen answered -32602 over HTTP: acknowledged rejects with it, and the listen went once', async () => {
  const server = await serveHttp({ servers: [LiveServer] });
  const listens: IncomingMessage[] = [];
  server.app.server.on('request', (req: IncomingMessage) => {
    if (req.headers['mcp-method'] === 'subscriptions/listen') listens.push(req);
  });
  const client = await connect({ url: server.url });
  try {
    expect(client.era).toBe('modern');
    // A filter the server's validation refuses, as a server refuses what it will not honour.
    const subscription = client.subscribe({ toolsListChanged: 'always' } as unknown as SubscriptionFilter);
    const refusal = await within(subscription.acknowledged).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(InvalidParamsError);
    expect(refusal).toMatchObject({ code: -32602, message: expect.stringContaining('toolsListChanged') });
    await expect(within(subscription[Symbol.asyncIterator]().next())).rejects.toBe(refusal);
    await pastRetries();
    expect(listens).toHaveLength(1);
  } finally {
    await client.close();
    await server.close();
  }
});
