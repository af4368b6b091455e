// Hardening bug (#48): completion/complete ignored guards and scopes, so a prompt or template the
// caller's lists hide gave its values to everyone, and -32602 for an unknown name versus values
// for a hidden one told which existed. Now the item's guards judge the caller as its list entry:
// with per-caller lists a hidden item answers exactly as an unknown one, with public lists the
// caller gets the refusal prompts/get would give. Both eras, over stdio (mcp-serve) and HTTP.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { request, type StdioProcess } from '@decorum-internal/test-support';
import type { TestApp } from '../../packages/fastify/test/support/app.js';
import { rpc } from '../../packages/fastify/test/support/http.js';
import { initializeSession, legacyPost } from '../../packages/fastify/test/support/legacy-client.js';
import { GuardedHttp, serveGuardedStdio } from './support/guarded.js';

const prompt = (name: string, value = '') => ({ ref: { type: 'ref/prompt', name }, argument: { name: 'topic', value } });
const template = (uri: string, value = '') => ({ ref: { type: 'ref/resource', uri }, argument: { name: 'name', value } });
const legacyComplete = (id: string | number, params: object) => ({ jsonrpc: '2.0', id, method: 'completion/complete', params });

/** What an unknown prompt and an unknown resource answer, with `name` in place of the unknown one. */
const unknownPrompt = (name: string) => ({ code: -32602, message: `Unknown prompt: ${name}` });
const unknownResource = (uri: string) => ({ code: -32602, message: `Resource not found: ${uri}`, data: { uri } });

describe('over stdio (mcp-serve, per-caller lists; stdio has no token, so staff-only items are hidden)', () => {
  let server: StdioProcess;
  beforeAll(async () => (server = await serveGuardedStdio()));
  afterAll(() => server.kill());

  test('modern: a hidden prompt answers as an unknown one, and its completer never runs', async () => {
    const unknown = await server.request(request('m-1', 'completion/complete', prompt('no_such_prompt')));
    const hidden = await server.request(request('m-2', 'completion/complete', prompt('review')));
    expect(unknown.error).toEqual(unknownPrompt('no_such_prompt'));
    expect(hidden.error).toEqual(unknownPrompt('review'));
    expect(JSON.stringify(hidden)).not.toContain('layoffs');
    expect((await server.request(request('m-3', 'completion/complete', prompt('greeting', 'w')))).result.completion).toEqual({ values: ['weather'] });
  });

  test('modern: a hidden template (asynchronous guard) answers as an unknown one', async () => {
    const unknown = await server.request(request('m-4', 'completion/complete', template('files://elsewhere/{name}')));
    const hidden = await server.request(request('m-5', 'completion/complete', template('files://staff/{name}')));
    expect(unknown.error).toEqual(unknownResource('files://elsewhere/{name}'));
    expect(hidden.error).toEqual(unknownResource('files://staff/{name}'));
    expect(JSON.stringify(hidden)).not.toContain('dismissals');
    expect((await server.request(request('m-6', 'completion/complete', template('docs://{name}', 'r')))).result.completion).toEqual({
      values: ['readme', 'roadmap'],
    });
  });

  test('legacy session: the same answers, with the legacy codes of unknown names', async () => {
    const unknown = await server.request(legacyComplete('l-1', prompt('no_such_prompt')));
    const hidden = await server.request(legacyComplete('l-2', prompt('review')));
    expect(hidden.error).toEqual({ ...unknown.error, message: 'Unknown prompt: review' });
    const unknownUri = await server.request(legacyComplete('l-3', template('files://elsewhere/{name}')));
    const hiddenUri = await server.request(legacyComplete('l-4', template('files://staff/{name}')));
    expect(unknownUri.error.code).toBe(-32602);
    expect(hiddenUri.error).toEqual({ ...unknownUri.error, message: 'Resource not found: files://staff/{name}', data: { uri: 'files://staff/{name}' } });
    expect((await server.request(legacyComplete('l-5', prompt('greeting', 'n')))).result.completion).toEqual({ values: ['news'] });
  });

  test('the guard that hid the item is named in the server log only, even to a client that asked for logs', async () => {
    const hidden = await server.request(request('log-1', 'completion/complete', prompt('review'), { logLevel: 'debug' }));
    expect(hidden.error).toEqual(unknownPrompt('review'));
    await server.waitForStderr(/"rpcId":"log-1"[^\n]*staffOnly/);
    expect(JSON.stringify(server.messages)).not.toContain('staffOnly');
  });
});

describe('over HTTP with OAuth tokens', () => {
  let http: GuardedHttp;
  let perCaller: TestApp;
  const bearer = (claims: Record<string, unknown>) => http.bearer(claims);
  beforeAll(async () => {
    http = await GuardedHttp.start();
    perCaller = await http.serve('per-caller');
  });
  afterAll(() => http.close());

  test('modern, per-caller lists: guard- and scope-hidden prompts answer as unknown ones; callers who may see them get values', async () => {
    const user = { headers: await bearer({ role: 'user', scope: 'mcp:use' }) };
    const unknown = await rpc(perCaller.url, 1, 'completion/complete', prompt('no_such_prompt'), user);
    for (const name of ['review', 'appraisal']) {
      const hidden = await rpc(perCaller.url, 1, 'completion/complete', prompt(name), user);
      expect(hidden.status).toBe(unknown.status);
      expect(hidden.json).toEqual({ ...unknown.json, error: unknownPrompt(name) });
    }
    const staff = { headers: await bearer({ role: 'staff', scope: 'mcp:use hr:read' }) };
    expect((await rpc(perCaller.url, 3, 'completion/complete', prompt('review', 'l'), staff)).json.result.completion).toEqual({ values: ['layoffs-2027'] });
    expect((await rpc(perCaller.url, 4, 'completion/complete', prompt('appraisal', 'a'), staff)).json.result.completion).toEqual({
      values: ['alice-underperforms'],
    });
  });

  test('modern, per-caller lists: a hidden template answers as an unknown one', async () => {
    const user = { headers: await bearer({ role: 'user' }) };
    const unknown = await rpc(perCaller.url, 5, 'completion/complete', template('files://elsewhere/{name}'), user);
    const hidden = await rpc(perCaller.url, 6, 'completion/complete', template('files://staff/{name}'), user);
    expect(hidden.status).toBe(unknown.status);
    expect(hidden.json.error).toEqual(unknownResource('files://staff/{name}'));
    const staff = { headers: await bearer({ role: 'staff' }) };
    expect((await rpc(perCaller.url, 7, 'completion/complete', template('files://staff/{name}', 'b'), staff)).json.result.completion).toEqual({
      values: ['budget.xlsx'],
    });
  });

  test('legacy session, per-caller lists: the same, guard and scope alike', async () => {
    const headers = await bearer({ role: 'user' });
    const { id } = await initializeSession(perCaller.url, undefined, headers);
    const inSession = { ...headers, 'mcp-session-id': id };
    const unknown = await legacyPost(perCaller.url, legacyComplete(1, prompt('no_such_prompt')), inSession);
    for (const name of ['review', 'appraisal']) {
      const hidden = await legacyPost(perCaller.url, legacyComplete(1, prompt(name)), inSession);
      expect(hidden.status).toBe(unknown.status);
      expect(hidden.json).toEqual({ ...unknown.json, error: { ...unknown.json.error, message: `Unknown prompt: ${name}` } });
    }
    expect((await legacyPost(perCaller.url, legacyComplete(2, prompt('greeting', 'w')), inSession)).json.result.completion).toEqual({ values: ['weather'] });
  });

  test('public lists: completing an item is refused as prompts/get refuses it (-31403, 403), and allowed as it is allowed', async () => {
    const open = await http.serve('public');
    const user = { headers: await bearer({ role: 'user' }) };
    const get = await rpc(open.url, 1, 'prompts/get', { name: 'review', arguments: { topic: 'x' } }, user);
    const completion = await rpc(open.url, 2, 'completion/complete', prompt('review'), user);
    expect(get.json.error.code).toBe(-31403);
    expect(completion.status).toBe(get.status);
    expect(completion.json.error).toEqual(get.json.error);
    expect(completion.text).not.toContain('layoffs');
    const staff = { headers: await bearer({ role: 'staff' }) };
    expect((await rpc(open.url, 3, 'completion/complete', prompt('review', 's'), staff)).json.result.completion).toEqual({ values: ['salaries'] });
  });
});
