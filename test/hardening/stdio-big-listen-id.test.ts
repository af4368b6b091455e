// Hardening #48 risk 11: a stdio `subscriptions/listen` whose id is beyond 2^53 could not tag its
// messages: its acknowledgement and notifications were dropped, its closing result became -32603
// and its teardown `notifications/cancelled` was dropped, each with a logged stack. They now carry
// the id as the same digits, as every answer does (large-ids.test.ts).
import { expect, test } from '@jest/globals';
import { StdioProcess } from '@decorum-internal/test-support';
import { META_JSON, rawToolCall } from './support/raw-call.js';

const ID = '1152921504606846976'; // 2^60
const SUBSCRIPTION = `"io.modelcontextprotocol/subscriptionId":${ID}`;
const listen = `{"jsonrpc":"2.0","id":${ID},"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},"_meta":${META_JSON}}}`;

test('its acknowledgement, notifications, closing result and teardown carry the id as the same digits; nothing is logged', async () => {
  const proc = StdioProcess.serve('test/hardening/fixtures/changing-server.ts');
  try {
    const line = async (predicate: (raw: string) => boolean): Promise<string> => {
      await proc.waitFor(() => proc.rawLines.some(predicate));
      return proc.rawLines.find(predicate)!;
    };

    // Started and serving first, so that the waits below are for the listen only.
    proc.send(rawToolCall('0', 'extra'));
    await proc.waitFor((m) => m.id === 0);
    proc.send(listen);
    const ack = await line((raw) => raw.includes('notifications/subscriptions/acknowledged'));
    expect(ack).toContain(SUBSCRIPTION);

    proc.send(rawToolCall('1', 'toggle'));
    const changed = await line((raw) => raw.includes('notifications/tools/list_changed'));
    expect(changed).toContain(SUBSCRIPTION);

    // Shutdown ends the listen: its closing result first, then notifications/cancelled naming it.
    proc.child.kill('SIGTERM');
    expect(await proc.exit(10_000)).toBe(0);
    const result = proc.rawLines.findIndex((raw) => new RegExp(`"id":${ID}[,}]`).test(raw) && raw.includes('"result"'));
    expect(proc.rawLines[result]).toContain('"resultType":"complete"');
    expect(proc.rawLines[result]).toContain(SUBSCRIPTION);
    const teardown = proc.rawLines.findIndex((raw) => raw.includes('"method":"notifications/cancelled"'));
    expect(teardown).toBeGreaterThan(result);
    expect(proc.rawLines[teardown]).toContain(`"requestId":${ID}`);
    expect(proc.stderr).not.toMatch(/serialize|"stack"/);
  } finally {
    proc.kill();
  }
});
