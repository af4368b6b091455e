// Hardening item 7: ids beyond 2^53 are echoed exactly (9007199254740993 used to come back as …992).
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startApp, type TestApp } from '../../packages/fastify/test/support/app.js';
import { parseJson } from '@decorum/core/transport';
import { StdioProcess } from '@decorum-internal/test-support';
import { Hardening } from './fixtures/hardening-server.js';
import { postRaw, rawToolCall } from './support/raw-call.js';
import { initializeSession, LEGACY_POST_HEADERS } from '../../packages/fastify/test/support/legacy-client.js';
import { send } from '../../packages/fastify/test/support/http.js';

const IDS = ['9007199254740993', '-9007199254740993', '123456789012345678901234567890'];

/** Whether `text` (one JSON-RPC message) has the member `"id"` with exactly these digits, wherever it stands. */
const carriesId = (text: string, id: string): boolean => new RegExp(`"id":${id}[,}]`).test(text);

test('parsing keeps the exact value as a bigint; safe integers stay numbers', () => {
  expect((parseJson('{"id":9007199254740993}') as { id: unknown }).id).toBe(9007199254740993n);
  expect((parseJson('{"id":9007199254740991}') as { id: unknown }).id).toBe(9007199254740991);
  expect((parseJson('{"method":"notifications/cancelled","params":{"requestId":9007199254740993}}') as any).params.requestId).toBe(9007199254740993n);
});

describe('over HTTP', () => {
  let served: TestApp;
  beforeAll(async () => (served = await startApp({ servers: [Hardening] })));
  afterAll(() => served.close());

  test.each(IDS)('id %s is echoed as the same digits, and the handler sees its exact value', async (id) => {
    const res = await postRaw(served.url, 'whoami', rawToolCall(id, 'whoami'));
    expect(carriesId(res.text, id)).toBe(true);
    expect(res.json.result.content[0].text).toBe(`bigint:${id}`);
  });

  test('an error answer keeps it too', async () => {
    const res = await postRaw(served.url, 'nope', rawToolCall(IDS[0], 'nope'));
    expect(res.text).toContain(`"id":${IDS[0]}`);
    expect(res.json.error.code).toBe(-32602);
  });

  // #49: the legacy session read the cancelled id as a string or a number only, so a big id was never cancelled.
  test('a legacy session cancels a request by its exact id', async () => {
    const session = await initializeSession(served.url, { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'big-ids', version: '1' } });
    const inSession = (body: string) => send(served.url, { headers: { ...LEGACY_POST_HEADERS, 'mcp-session-id': session.id }, body });
    const call = inSession('{"jsonrpc":"2.0","id":9007199254740995,"method":"tools/call","params":{"name":"sleep","arguments":{"ms":1500}}}');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const cancel = await inSession('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9007199254740995}}');
    expect(cancel.status).toBe(202);
    // Cancelled: the POST is accepted with no response (a sleep that ran to its end would answer 200).
    const res = await call;
    expect([res.status, res.text]).toEqual([202, '']);
  });
});

test('over stdio (mcp-serve), ids are echoed as the same digits and can be cancelled', async () => {
  const proc = StdioProcess.serve('test/hardening/fixtures/hardening-server.ts');
  try {
    for (const id of IDS) proc.send(rawToolCall(id, 'whoami'));
    await proc.waitFor(() => proc.rawLines.length >= IDS.length);
    for (const id of IDS) {
      const line = proc.rawLines.find((l) => carriesId(l, id));
      expect(line).toContain(`"text":"bigint:${id}"`);
    }
    // A cancellation names the request by the same exact id: the request is never answered.
    proc.send(rawToolCall('9007199254740995', 'sleep', '{"ms":400}'));
    proc.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9007199254740995}}`);
    proc.send(rawToolCall('9007199254740997', 'sleep', '{"ms":600}'));
    await proc.waitFor(() => proc.rawLines.some((l) => carriesId(l, '9007199254740997')));
    expect(proc.rawLines.some((l) => l.includes('9007199254740995'))).toBe(false);
  } finally {
    proc.kill();
  }
});
