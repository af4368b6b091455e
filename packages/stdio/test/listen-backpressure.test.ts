import 'reflect-metadata';
import { McpServer, Resource } from '@decorum/core';
import { request } from '@decorum-internal/test-support';
import { RecordingOutput, serveInProcess } from './support/in-process-stdio.js';

@McpServer({ name: 'notes', version: '1.0.0' })
class Notes {
  @Resource({ uriTemplate: 'notes://{id}' })
  note({ id }: { id: string }) {
    return `note ${id}`;
  }
}

const SUB = 'io.modelcontextprotocol/subscriptionId';
const EVENTS = 3000;

describe('subscriptions/listen over a stdout that stopped reading', () => {
  test('the listen is cut off with an error instead of queueing every event, then notifications/cancelled', async () => {
    const output = new RecordingOutput(0, 1024);
    const { input, served, until } = serveInProcess([Notes], { output });
    input.write(`${JSON.stringify(request('L', 'subscriptions/listen', { notifications: { resourceSubscriptions: ['notes://{id}'] } }))}\n`);
    await until((m) => m.some((x) => x.method === 'notifications/subscriptions/acknowledged'));
    output.stall();
    for (let i = 0; i < EVENTS; i++) served.server.notifyResourceUpdated(`notes://${i}`);
    await new Promise((resolve) => setImmediate(resolve));
    output.unstall();
    const isUpdate = (m: Record<string, any>) => m.method === 'notifications/resources/updated';
    const messages = await until((m) => m.some((x) => x.id === 'L') || m.filter(isUpdate).length === EVENTS);
    const answer = messages.findIndex((m) => m.id === 'L');
    expect(messages[answer]).toMatchObject({ id: 'L', error: { code: -32603, message: expect.stringContaining('did not read') } });
    expect(messages.filter(isUpdate).length).toBeLessThan(EVENTS);
    expect(messages.slice(answer + 1).find((m) => m.method === 'notifications/cancelled')?.params.requestId).toBe('L');
    expect(messages.filter((m) => m.params?._meta?.[SUB] === 'L' && messages.indexOf(m) > answer)).toEqual([]);
  });
});
