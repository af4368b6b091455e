// Hardening item 3: a client that sends headers and `{`, then nothing, must not hold its connection
// for ever (Fastify's default has no limit); other clients are served meanwhile.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createMcpApp, timeoutOptions } from '@decorum/fastify';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../../packages/fastify/src/timeouts.js';
import { body, send, standardHeaders } from '../../packages/fastify/test/support/http.js';
import { serveHttpProcess } from '../../packages/fastify/test/support/cli-process.js';
import { Hardening } from './fixtures/hardening-server.js';

let app: FastifyInstance;
let port: number;
beforeAll(async () => {
  app = await createMcpApp([Hardening], { requestTimeout: 400, requestLogLevel: false, logger: undefined });
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as { port: number }).port;
});
afterAll(() => app.close());

/** Opens a connection, sends headers and the first byte of a 100 kB body, and resolves when the server closes it. */
function stalledRequest(port: number): Promise<{ closedAfterMs: number; reply: string }> {
  return new Promise((resolve, reject) => {
    const startedAt = Date.now();
    let reply = '';
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100000\r\n\r\n{`,
      );
    });
    socket.setEncoding('utf8').on('data', (text: string) => (reply += text));
    socket.on('close', () => resolve({ closedAfterMs: Date.now() - startedAt, reply }));
    socket.on('error', reject);
    setTimeout(() => socket.destroy(new Error('the server held a stalled request for 10 s')), 10_000).unref();
  });
}

test('a stalled request body is answered 408 and its connection closed after requestTimeout, while others are served', async () => {
  const stalled = Promise.all([stalledRequest(port), stalledRequest(port), stalledRequest(port)]);
  const message = body(1, 'tools/call', { name: 'echo', arguments: { text: 'served' } });
  const served = await send(`http://127.0.0.1:${port}/mcp`, { headers: standardHeaders(message), body: JSON.stringify(message) });
  expect(served.json.result.content[0].text).toBe('served');
  for (const { closedAfterMs, reply } of await stalled) {
    expect(closedAfterMs).toBeGreaterThanOrEqual(350);
    expect(closedAfterMs).toBeLessThan(5000);
    expect(reply).toMatch(/^HTTP\/1\.1 408 /);
  }
});

test('standalone apps read requests within 30 s and headers within 10 s by default; an own Fastify setting is kept', () => {
  expect(timeoutOptions({})).toEqual({ requestTimeout: DEFAULT_REQUEST_TIMEOUT_MS, http: { headersTimeout: 10_000, connectionsCheckingInterval: 1000 } });
  expect(timeoutOptions({}, { requestTimeout: 5000, trustProxy: true })).toMatchObject({ requestTimeout: 5000, trustProxy: true });
  expect(timeoutOptions({ requestTimeout: 0 }).requestTimeout).toBe(0);
});

test('mcp-serve --request-timeout: 200 stalled bodies at once are each answered 408, and a client is served meanwhile', async () => {
  const served = await serveHttpProcess([
    'test/hardening/fixtures/hardening-server.ts',
    '--http',
    '--port',
    '0',
    '--request-timeout',
    '400',
    '--headers-timeout',
    '300',
  ]);
  try {
    const port = Number(new URL(served.url).port);
    const stalled = Promise.all(Array.from({ length: 200 }, () => stalledRequest(port)));
    const message = body(1, 'tools/call', { name: 'echo', arguments: { text: 'served' } });
    const answer = await send(served.url, { headers: standardHeaders(message), body: JSON.stringify(message) });
    expect(answer.json.result.content[0].text).toBe('served');
    const replies = (await stalled).map(({ reply }) => reply.slice(0, 13));
    expect(replies.filter((r) => r !== 'HTTP/1.1 408 ')).toEqual([]);
  } finally {
    served.child.kill('SIGKILL');
  }
});
