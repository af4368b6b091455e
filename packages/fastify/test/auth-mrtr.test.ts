import { McpServer, Tool, type ToolContext } from '@decorum/core';
import { rpc } from './support/http.js';
import { injectApp, type TestApp } from './support/app.js';
import { AuthServerFixture } from './support/auth-fixture.js';

const RESOURCE = 'https://mcp.example.test/mcp';

@McpServer({ name: 'confirm', version: '1.0.0' })
class ConfirmServer {
  @Tool({ description: 'Asks before deleting', input: null })
  async delete_all(_args: unknown, ctx: ToolContext) {
    const answer = await ctx.elicit({
      message: 'Really delete everything?',
      requestedSchema: { type: 'object', properties: { sure: { type: 'boolean' } }, required: ['sure'] },
    });
    return `${ctx.auth?.principal} answered ${answer.action}`;
  }
}

describe('MRTR over HTTP: requestState is bound to the principal (issue #6, item 5)', () => {
  let as: AuthServerFixture;
  let t: TestApp;
  beforeAll(async () => {
    as = await AuthServerFixture.start(RESOURCE);
    t = await injectApp({ servers: [ConfirmServer], auth: { resource: RESOURCE, authorizationServers: [as.issuer], jwt: { jwks: as.jwks } } });
  });
  afterAll(async () => {
    await t?.close();
    await as?.close();
  });

  const withToken = async (sub: string) => ({ capabilities: { elicitation: {} }, headers: { authorization: `Bearer ${await as.token({ sub })}` } });

  test('state minted for alice is refused for bob, and still works for alice', async () => {
    const first = await rpc(t.url, 1, 'tools/call', { name: 'delete_all', arguments: {} }, await withToken('alice'));
    expect(first.status).toBe(200);
    expect(first.json.result.resultType).toBe('input_required');
    const { requestState, inputRequests } = first.json.result;
    expect(typeof requestState).toBe('string');
    const key = Object.keys(inputRequests)[0]!;
    const retry = { name: 'delete_all', arguments: {}, requestState, inputResponses: { [key]: { action: 'accept', content: { sure: true } } } };

    const bob = await rpc(t.url, 2, 'tools/call', retry, await withToken('bob'));
    expect(bob.json.error).toEqual(expect.objectContaining({ code: -32602, message: expect.stringContaining('a different principal') }));

    const alice = await rpc(t.url, 3, 'tools/call', retry, await withToken('alice'));
    expect(alice.json.result.content[0].text).toBe('alice answered accept');
  });
});
