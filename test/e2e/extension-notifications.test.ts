import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { pino } from 'pino';
import { mcpPlugin } from '@decorum/fastify';
import { openLegacySession, request, StdioProcess, until } from '@decorum-internal/test-support';
import { Heard, serverOptions } from '../fixtures/extension-notifications-server.js';

const FIXTURE = 'test/fixtures/extension-notifications-server.ts';
const notification = (method: string, word: string) => ({ jsonrpc: '2.0', method, params: { word } });

/**
 * Client notifications reach the extension that handles them on every transport (stdio, HTTP
 * POST, a legacy session), a failing handler is logged, and the process keeps serving.
 */
describe('extension notifications', () => {
  test('over stdio, modern: routed to the extension; a throwing handler is logged and the process keeps serving', async () => {
    const server = StdioProcess.serve(FIXTURE);
    try {
      // Up first (its start-up allowance is the request's): the log checks below then time only the notifications.
      expect((await server.request(request(0, 'tools/call', { name: 'ping' }))).result.content[0].text).toBe('pong');
      server.send(notification('notifications/com.example/heard', 'hello'));
      server.send(notification('notifications/com.example/broken', 'x'));
      await server.waitForStderr('"heard":"hello"');
      await server.waitForStderr('the handler broke');
      expect((await server.request(request(1, 'tools/call', { name: 'ping' }))).result.content[0].text).toBe('pong');
    } finally {
      server.child.stdin.end();
      await server.exit();
    }
  });

  test('over stdio, in a legacy session', async () => {
    const server = StdioProcess.serve(FIXTURE);
    try {
      await openLegacySession(server);
      server.send(notification('notifications/com.example/heard', 'legacy'));
      await server.waitForStderr('"heard":"legacy"');
    } finally {
      server.child.stdin.end();
      await server.exit();
    }
  });

  test('over HTTP (a POSTed notification, 202)', async () => {
    const lines: Array<Record<string, any>> = [];
    const logger = pino({ level: 'warn' }, new Writable({ write: (chunk, _e, done) => (lines.push(JSON.parse(String(chunk))), done()) }));
    const app = Fastify({ logger: false });
    await app.register(mcpPlugin, { servers: [Heard], ...serverOptions, logger });
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/mcp`;
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28' },
        body: JSON.stringify(notification('notifications/com.example/heard', 'http')),
      });
      expect(res.status).toBe(202);
      await until('the extension heard it', () => lines.find((line) => line.heard === 'http'));
    } finally {
      await app.close();
    }
  });
});
