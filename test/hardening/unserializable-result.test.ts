// Hardening items 2 and 6: a result JSON cannot hold (a BigInt, a cycle in structuredContent) is
// answered with -32603 for its id on every transport and era; an SSE stream that began still ends with it.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startApp, type TestApp } from '../../packages/fastify/test/support/app.js';
import { body, send, standardHeaders } from '../../packages/fastify/test/support/http.js';
import { initializeSession, legacyPost, legacyToolCall, OpenStream } from '../../packages/fastify/test/support/legacy-client.js';
import { StdioProcess, request } from '@decorum-internal/test-support';
import { Hardening } from './fixtures/hardening-server.js';

const internal = (id: number | string) => ({ jsonrpc: '2.0', id, error: { code: -32603, message: 'Internal error' } });

describe('over HTTP', () => {
  let served: TestApp;
  beforeAll(async () => (served = await startApp({ servers: [Hardening] })));
  afterAll(() => served.close());

  const call = (id: number, name: string, overrides = {}) => {
    const message = body(id, 'tools/call', { name }, overrides);
    return send(served.url, { headers: standardHeaders(message), body: JSON.stringify(message) });
  };

  test.each(['bigint', 'cycle'])('a JSON answer (%s) is a -32603 error with the id, status 200 (H-40)', async (name) => {
    const res = await call(1, name);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json).toEqual(internal(1));
  });

  test.each(['bigint', 'cycle'])('an SSE stream (%s, with a progressToken) ends with a -32603 error for the id', async (name) => {
    const res = await call(2, name, { progressToken: 'p' });
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.events).toEqual([expect.objectContaining({ method: 'notifications/progress' }), internal(2)]);
  });

  test('the server keeps serving', async () => {
    const message = body(3, 'tools/call', { name: 'echo', arguments: { text: 'still here' } });
    const res = await send(served.url, { headers: standardHeaders(message), body: JSON.stringify(message) });
    expect(res.json.result.content[0].text).toBe('still here');
  });
});

describe('over HTTP in a legacy (2025-11-25) session', () => {
  let served: TestApp;
  let session: string;
  beforeAll(async () => {
    served = await startApp({ servers: [Hardening] });
    session = (await initializeSession(served.url)).id;
  });
  afterAll(() => served.close());

  test.each(['bigint', 'cycle'])('a JSON answer (%s) is a -32603 error with the id, status 200', async (name) => {
    const res = await legacyPost(served.url, legacyToolCall(1, name), { 'mcp-session-id': session });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json).toEqual(internal(1));
  });

  test.each(['bigint', 'cycle'])('its SSE stream (%s, with a progressToken) ends with a -32603 error for the id', async (name) => {
    const stream = await OpenStream.post(served.url, session, legacyToolCall(2, name, {}, { progressToken: 'p' }));
    await stream.waitFor((event) => event.id === 2);
    expect(stream.res.headers['content-type']).toBe('text/event-stream');
    expect(stream.events()).toEqual([expect.objectContaining({ method: 'notifications/progress' }), internal(2)]);
  });

  test('the session keeps serving', async () => {
    const res = await legacyPost(served.url, legacyToolCall(3, 'echo', { text: 'still here' }), { 'mcp-session-id': session });
    expect(res.json.result.content[0].text).toBe('still here');
  });
});

test('over stdio (mcp-serve), the answer is a -32603 error with the id, and the process keeps serving', async () => {
  const proc = StdioProcess.serve('test/hardening/fixtures/hardening-server.ts');
  try {
    expect(await proc.request(request(1, 'tools/call', { name: 'bigint' }, { progressToken: 'p' }))).toEqual(internal(1));
    expect(await proc.request(request(2, 'tools/call', { name: 'cycle' }))).toEqual(internal(2));
    expect((await proc.request(request(3, 'tools/call', { name: 'echo', arguments: { text: 'ok' } }))).result.content[0].text).toBe('ok');
  } finally {
    proc.kill();
  }
});
