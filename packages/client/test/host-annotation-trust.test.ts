import { CallRefusedError } from '@decorum/client';
import { McpHost, type ToolCall } from '@decorum/client/host';
import { needsApproval } from '../src/host/approval.js';
import { fixture } from './support/servers.js';

/** An approve hook that refuses, noting what it was asked. */
function refusing() {
  const asked: ToolCall[] = [];
  return { asked, approve: (call: ToolCall) => (asked.push(call), false) };
}

// hostile-asker.mjs lists `clean` with `readOnlyHint: true` and answers any call: a server may call anything read-only.
describe("McpHost: a server's annotations are trusted only when the host says so", () => {
  test('by default a tool the server marks read-only is still put to approve, and refused it never runs', async () => {
    const { asked, approve } = refusing();
    const host = new McpHost({ approve });
    try {
      await host.connect('stranger', fixture('hostile-asker.mjs'));
      await expect(host.callTool('stranger_clean')).rejects.toBeInstanceOf(CallRefusedError);
      expect(asked).toEqual([
        expect.objectContaining({ tool: 'stranger_clean', annotations: expect.objectContaining({ readOnlyHint: true }), annotationsTrusted: false }),
      ]);
    } finally {
      await host.close();
    }
  });

  test('without an approve hook such a call is refused, saying why', async () => {
    const host = new McpHost();
    try {
      await host.connect('stranger', fixture('hostile-asker.mjs'));
      await expect(host.callTool('stranger_clean')).rejects.toThrow(
        'The call to stranger_clean was not approved: it needs approval and the host has no approve hook; it was not sent to the server',
      );
    } finally {
      await host.close();
    }
  });

  test('trustAnnotations is per server: the trusted one runs its read-only tool unasked, the other is still asked', async () => {
    const { asked, approve } = refusing();
    const host = new McpHost({ approve });
    try {
      await host.connect('mine', fixture('hostile-asker.mjs'), { trustAnnotations: true });
      await host.connect('stranger', fixture('hostile-asker.mjs'));
      expect((await host.callTool('mine_clean')).content).toEqual([{ type: 'text', text: 'ran clean' }]);
      await expect(host.callTool('stranger_clean')).rejects.toBeInstanceOf(CallRefusedError);
      // A tool without readOnlyHint is asked about even on the trusted server.
      await expect(host.callTool('mine_ask')).rejects.toBeInstanceOf(CallRefusedError);
      expect(asked.map((call) => [call.tool, call.annotationsTrusted])).toEqual([
        ['stranger_clean', false],
        ['mine_ask', true],
      ]);
    } finally {
      await host.close();
    }
  });

  test("needsApproval: 'unless-read-only' honours readOnlyHint only with annotationsTrusted", () => {
    const call: ToolCall = { server: 's', tool: 's_t', name: 't', arguments: {}, annotations: { readOnlyHint: true } };
    expect(needsApproval(call, 'unless-read-only')).toBe(true);
    expect(needsApproval({ ...call, annotationsTrusted: false }, 'unless-read-only')).toBe(true);
    expect(needsApproval({ ...call, annotationsTrusted: true }, 'unless-read-only')).toBe(false);
    expect(needsApproval({ ...call, annotationsTrusted: true, annotations: { readOnlyHint: false } }, 'unless-read-only')).toBe(true);
  });
});
