// An HTTP `subscriptions/listen` whose id is beyond 2^53 could not tag its messages: its
// acknowledgement and notifications were dropped (a logged "could not be serialized") and its
// closing result became -32603. They now carry the id as the same digits, as over stdio
// (stdio-big-listen-id.test.ts), through the one encoder's `exactIntegers`.
import { expect, test } from '@jest/globals';
import { request as httpRequest } from 'node:http';
import { LogCapture, startApp } from '../../packages/fastify/test/support/app.js';
import { rpc, standardHeaders } from '../../packages/fastify/test/support/http.js';
import { Changing } from './fixtures/changing-server.js';
import { META_JSON } from './support/raw-call.js';

const ID = '1152921504606846976'; // 2^60
const SUBSCRIPTION = `"io.modelcontextprotocol/subscriptionId":${ID}`;
const LISTEN = `{"jsonrpc":"2.0","id":${ID},"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},"_meta":${META_JSON}}}`;

test('its acknowledgement, notifications and closing result carry the id as the same digits; nothing is logged', async () => {
  const logs = new LogCapture();
  const served = await startApp({ servers: [Changing] }, undefined, logs);
  let text = '';
  let ended!: () => void;
  const end = new Promise<void>((resolve) => (ended = resolve));
  const until = async (predicate: () => boolean): Promise<void> => {
    for (const deadline = Date.now() + 5000; !predicate(); await new Promise((resolve) => setTimeout(resolve, 20))) {
      if (Date.now() > deadline) throw new Error(`timed out; stream so far: ${text}`);
    }
  };
  try {
    const headers = standardHeaders({ method: 'subscriptions/listen' });
    const req = httpRequest(served.url, { method: 'POST', headers, agent: false }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', ended);
    });
    req.end(LISTEN);
    await until(() => text.includes('notifications/subscriptions/acknowledged'));
    expect(text).toContain(SUBSCRIPTION);

    expect((await rpc(served.url, 1, 'tools/call', { name: 'toggle', arguments: {} })).json.result.content[0].text).toBe('toggled');
    await until(() => text.includes('notifications/tools/list_changed'));
    const changed = text.split('\n').find((line) => line.includes('notifications/tools/list_changed'))!;
    expect(changed).toContain(SUBSCRIPTION);

    // Shutdown ends the listen with its closing result, which names it too.
    const closing = served.close();
    await end;
    await closing;
    const result = text.split('\n').find((line) => new RegExp(`"id":${ID}[,}]`).test(line) && line.includes('"result"'));
    expect(result).toContain('"resultType":"complete"');
    expect(result).toContain(SUBSCRIPTION);
    expect(logs.raw.join('\n')).not.toMatch(/serialize|"stack"/);
  } finally {
    await served.close().catch(() => undefined);
  }
});
