import { InternalError } from '@decorum/core';
import { connect, InvalidResultError, RequestCancelledError, type McpClient } from '@decorum/client';
import { fixture } from './support/servers.js';

/** How `callTool` copes with Tasks answers a real server gives only by chance (a scripted stdio server). */
describe('McpClient tasks against a scripted server', () => {
  let client: McpClient;
  let asked = 0;
  beforeAll(async () => {
    client = await connect(fixture('scripted-task-server.mjs'), { elicitation: () => (asked++, { action: 'accept', content: { ok: true } }) });
  });
  afterAll(() => client.close());

  test('an ask the server still shows after tasks/update (eventual consistency) is answered once', async () => {
    const result = await client.callTool('ask');
    expect(asked).toBe(1);
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual([{ q1: { action: 'accept', content: { ok: true } } }]);
  });

  test('a task in a status the spec does not have is an invalid result, named', async () => {
    await expect(client.callTool('weird')).rejects.toThrow(
      new InvalidResultError('tools/call answered task weird-1 with status "paused", which this client does not know'),
    );
  });

  test('a task that failed without an error object throws -32603 with its status message', async () => {
    await expect(client.callTool('broken')).rejects.toThrow(new InternalError('disk full'));
  });

  test('a task answered to a request that did not declare the extension is an invalid result', async () => {
    await expect(client.callTool('ask', {}, { task: false })).rejects.toBeInstanceOf(InvalidResultError);
    const plain = await connect(fixture('scripted-task-server.mjs'), { tasks: false });
    try {
      await expect(plain.callTool('ask')).rejects.toBeInstanceOf(InvalidResultError);
    } finally {
      await plain.close();
    }
  });

  test('an aborted call rejects within seconds even when the server never acknowledges tasks/cancel', async () => {
    const controller = new AbortController();
    const started = Date.now();
    await expect(client.callTool('stuck', {}, { signal: controller.signal, onStatus: () => controller.abort() })).rejects.toBeInstanceOf(RequestCancelledError);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
