// Hardening risk (#48): calling a tool that the caller's per-caller lists hide was refused with
// -31403 naming the guard function, which told the caller the tool existed and how it is
// guarded. A hidden tool, prompt or resource now answers exactly as an unknown one; the guard is
// named in the server log only. A visible item refused on its arguments, and every refusal with
// public lists, keep the guard's -31403. Both eras, over stdio (mcp-serve) and HTTP with tokens.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { legacyCall, request, type StdioProcess } from '@decorum-internal/test-support';
import { rpc } from '../../packages/fastify/test/support/http.js';
import { initializeSession, legacyPost, legacyToolCall } from '../../packages/fastify/test/support/legacy-client.js';
import { GuardedHttp, serveGuardedStdio } from './support/guarded.js';

const call = (id: string, name: string, args: object = {}) => request(id, 'tools/call', { name, arguments: args });
const legacy = (id: string, method: string, params: object) => ({ jsonrpc: '2.0', id, method, params });

describe('over stdio (mcp-serve, per-caller lists; stdio has no token, so staff-only items are hidden)', () => {
  let server: StdioProcess;
  beforeAll(async () => (server = await serveGuardedStdio()));
  afterAll(() => server.kill());

  test('modern: hidden tools (sync and async guards), prompts and resources answer as unknown ones', async () => {
    const unknownTool = await server.request(call('m-1', 'no_such_tool'));
    expect(unknownTool.error).toEqual({ code: -32602, message: 'Unknown tool: no_such_tool' });
    for (const name of ['payroll', 'rota'])
      expect((await server.request(call(`m-${name}`, name))).error).toEqual({ code: -32602, message: `Unknown tool: ${name}` });
    expect((await server.request(request('m-2', 'prompts/get', { name: 'no_such_prompt', arguments: { topic: 'x' } }))).error).toEqual({
      code: -32602,
      message: 'Unknown prompt: no_such_prompt',
    });
    expect((await server.request(request('m-3', 'prompts/get', { name: 'review', arguments: { topic: 'x' } }))).error).toEqual({
      code: -32602,
      message: 'Unknown prompt: review',
    });
    const unknownUri = await server.request(request('m-4', 'resources/read', { uri: 'notes://nope' }));
    expect(unknownUri.error).toEqual({ code: -32602, message: 'Resource not found: notes://nope', data: { uri: 'notes://nope' } });
    for (const uri of ['notes://staff', 'files://staff/budget.xlsx'])
      expect((await server.request(request(`m-${uri}`, 'resources/read', { uri }))).error).toEqual({
        ...unknownUri.error,
        message: `Resource not found: ${uri}`,
        data: { uri },
      });
  });

  test('modern: a visible tool refused on its arguments keeps the guard refusal', async () => {
    expect((await server.request(call('m-5', 'lookup', { topic: 'secret' }))).error).toEqual({
      code: -31403,
      message: 'Forbidden: tools/call "lookup" was refused by guard "noSecrets"',
      data: { guard: 'noSecrets' },
    });
    expect((await server.request(call('m-6', 'lookup', { topic: 'cats' }))).result.content[0].text).toBe('about cats');
  });

  test('legacy session: the same answers as unknown names, with the legacy codes', async () => {
    const unknownTool = await server.request(legacyCall('l-1', 'no_such_tool'));
    expect((await server.request(legacyCall('l-2', 'payroll'))).error).toEqual({ ...unknownTool.error, message: 'Unknown tool: payroll' });
    const unknownUri = await server.request(legacy('l-3', 'resources/read', { uri: 'notes://nope' }));
    expect(unknownUri.error.code).toBe(-32002);
    expect((await server.request(legacy('l-4', 'resources/read', { uri: 'notes://staff' }))).error).toEqual({
      ...unknownUri.error,
      message: 'Resource not found: notes://staff',
      data: { uri: 'notes://staff' },
    });
  });

  test('the guard is named in the server log only, even to a client that asked for logs', async () => {
    const hidden = await server.request(request('log-1', 'tools/call', { name: 'payroll', arguments: {} }, { logLevel: 'debug' }));
    expect(hidden.error).toEqual({ code: -32602, message: 'Unknown tool: payroll' });
    await server.waitForStderr(/"rpcId":"log-1"[^\n]*refused by guard \\"staffOnly\\"/);
    expect(JSON.stringify(server.messages)).not.toContain('staffOnly');
    expect(JSON.stringify(server.messages)).not.toContain('staffDirectory');
  });

  test('a guard that throws hides its tool: unknown to the client, its error in the server log only', async () => {
    const hidden = await server.request(request('log-2', 'tools/call', { name: 'audit', arguments: {} }, { logLevel: 'debug' }));
    expect(hidden.error).toEqual({ code: -32602, message: 'Unknown tool: audit' });
    await server.waitForStderr(/"rpcId":"log-2"[^\n]*brokenDirectory/);
    expect(server.stderr).toContain('hunter2');
    expect(JSON.stringify(server.messages)).not.toMatch(/brokenDirectory|hunter2/);
  });

  test('a guard that never answers hides its tool once stepTimeoutMs passed; its name is logged on the server only', async () => {
    const hidden = await server.request(request('log-3', 'tools/call', { name: 'archive', arguments: {} }, { logLevel: 'debug' }));
    expect(hidden.error).toEqual({ code: -32602, message: 'Unknown tool: archive' });
    await server.waitForStderr(/"step":"hangingDirectory"[^\n]*"rpcId":"log-3"[^\n]*pipeline step timed out/);
    expect(JSON.stringify(server.messages)).not.toContain('hangingDirectory');
  });
});

describe('over HTTP with OAuth tokens', () => {
  let http: GuardedHttp;
  const bearer = (role: string) => http.bearer({ role });
  const serve = (lists: 'per-caller' | 'public') => http.serve(lists);
  beforeAll(async () => (http = await GuardedHttp.start()));
  afterAll(() => http.close());

  test('modern, per-caller lists: a hidden tool answers as an unknown one (status, body, no challenge); staff are served', async () => {
    const t = await serve('per-caller');
    const user = { headers: await bearer('user') };
    const unknown = await rpc(t.url, 1, 'tools/call', { name: 'no_such_tool', arguments: {} }, user);
    for (const name of ['payroll', 'rota']) {
      const hidden = await rpc(t.url, 1, 'tools/call', { name, arguments: {} }, user);
      expect(hidden.status).toBe(unknown.status);
      expect(hidden.headers['www-authenticate']).toBeUndefined();
      expect(hidden.json).toEqual({ ...unknown.json, error: { code: -32602, message: `Unknown tool: ${name}` } });
    }
    expect((await rpc(t.url, 2, 'tools/call', { name: 'payroll', arguments: {} }, { headers: await bearer('staff') })).json.result.content[0].text).toBe(
      'payroll',
    );
  });

  test('modern, per-caller lists: a visible tool refused on its arguments keeps 403, -31403 and the challenge', async () => {
    const t = await serve('per-caller');
    const refused = await rpc(t.url, 1, 'tools/call', { name: 'lookup', arguments: { topic: 'secret' } }, { headers: await bearer('user') });
    expect(refused.status).toBe(403);
    expect(refused.headers['www-authenticate']).toContain('error="insufficient_scope"');
    expect(refused.json.error).toEqual({
      code: -31403,
      message: 'Forbidden: tools/call "lookup" was refused by guard "noSecrets"',
      data: { guard: 'noSecrets' },
    });
  });

  test('legacy session, per-caller lists: a hidden tool answers as an unknown one', async () => {
    const t = await serve('per-caller');
    const headers = await bearer('user');
    const { id } = await initializeSession(t.url, undefined, headers);
    const inSession = { ...headers, 'mcp-session-id': id };
    const unknown = await legacyPost(t.url, legacyToolCall(1, 'no_such_tool'), inSession);
    const hidden = await legacyPost(t.url, legacyToolCall(1, 'payroll'), inSession);
    expect(hidden.status).toBe(unknown.status);
    expect(hidden.json).toEqual({ ...unknown.json, error: { ...unknown.json.error, message: 'Unknown tool: payroll' } });
    expect(hidden.text).not.toContain('staffOnly');
  });

  test('public lists: nothing is hidden, so a refusal stays -31403 naming the guard (documented)', async () => {
    const t = await serve('public');
    const refused = await rpc(t.url, 1, 'tools/call', { name: 'payroll', arguments: {} }, { headers: await bearer('user') });
    expect(refused.status).toBe(403);
    expect(refused.json.error).toEqual({
      code: -31403,
      message: 'Forbidden: tools/call "payroll" was refused by guard "staffOnly"',
      data: { guard: 'staffOnly' },
    });
  });
});
