// Hardening #48 bug 3: a byte ≥ 0x80 in Mcp-Session-Id, Last-Event-ID or MCP-Protocol-Version on
// the legacy side was a 500 and an error log with a stack per request; it is a 400, as on the
// modern side, and nothing is logged as an error.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { LogCapture, startApp, type TestApp } from '../../packages/fastify/test/support/app.js';
import { send } from '../../packages/fastify/test/support/http.js';
import { initializeSession, LEGACY_POST_HEADERS } from '../../packages/fastify/test/support/legacy-client.js';
import { Hardening } from './fixtures/hardening-server.js';

// Node's http client writes a header value's characters U+0080…U+00FF as single latin1 bytes.
const LATIN1 = 'caf\u00e9';
const PING = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' });
const notAllowed = (header: string) => new RegExp(`^Header mismatch: ${header} header contains characters not allowed in an HTTP field value`);

describe('legacy requests whose MCP headers hold bytes ≥ 0x80', () => {
  let served: TestApp;
  const logs = new LogCapture();
  let session: string;
  beforeAll(async () => {
    served = await startApp({ servers: [Hardening] }, undefined, logs);
    session = (await initializeSession(served.url)).id;
  });
  afterAll(() => served.close());

  // Each request: its method, its headers (beside the session's), and the header named in the refusal.
  const cases: Array<[string, string, () => Record<string, string>, string]> = [
    ['POST', 'Mcp-Session-Id', () => ({ ...LEGACY_POST_HEADERS, 'mcp-session-id': `${session}${LATIN1}` }), 'Mcp-Session-Id'],
    [
      'POST',
      'MCP-Protocol-Version',
      () => ({ ...LEGACY_POST_HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': `2025-11-25${LATIN1}` }),
      'MCP-Protocol-Version',
    ],
    ['GET', 'Mcp-Session-Id', () => ({ accept: 'text/event-stream', 'mcp-session-id': LATIN1 }), 'Mcp-Session-Id'],
    ['GET', 'Last-Event-ID', () => ({ accept: 'text/event-stream', 'mcp-session-id': session, 'last-event-id': `0_${LATIN1}` }), 'Last-Event-ID'],
    ['DELETE', 'Mcp-Session-Id', () => ({ 'mcp-session-id': LATIN1 }), 'Mcp-Session-Id'],
  ];

  test.each(cases)('%s with such a byte in %s → 400 naming the header, no error logged', async (method, _header, headers, named) => {
    const before = logs.lines.length;
    const res = await send(served.url, { method, headers: headers(), body: method === 'POST' ? PING : undefined });
    expect(res.status).toBe(400);
    // The legacy era has no -32020 (2026-07-28 only): its code there is -32600.
    expect(res.json.error.code).toBe(-32600);
    expect(res.json.error.message).toMatch(notAllowed(named));
    const logged = logs.lines.slice(before);
    expect(logged.filter((line) => line.level >= 50)).toEqual([]);
    expect(logs.raw.slice(before).some((line) => line.includes('"stack"'))).toBe(false);
  });

  // Such a revision is not a legacy one: the modern rule applies, as to any version it does not know.
  test.each(['GET', 'DELETE'])('%s with such a byte in MCP-Protocol-Version → 405 (no GET or DELETE in 2026-07-28), no error logged', async (method) => {
    const before = logs.lines.length;
    const res = await send(served.url, {
      method,
      headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': `2025-11-25${LATIN1}` },
    });
    expect(res.status).toBe(405);
    expect(res.json.error.code).toBe(-32600);
    expect(logs.lines.slice(before).filter((line) => line.level >= 50)).toEqual([]);
  });

  test('the session keeps serving, and the same requests with clean headers are answered', async () => {
    const ping = await send(served.url, { headers: { ...LEGACY_POST_HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' }, body: PING });
    expect([ping.status, ping.json]).toEqual([200, { jsonrpc: '2.0', id: 7, result: {} }]);
    const deleted = await send(served.url, { method: 'DELETE', headers: { 'mcp-session-id': session } });
    expect(deleted.status).toBe(200);
  });
});
