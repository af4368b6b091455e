import 'reflect-metadata';
import { AskRefusedError, McpClient, type CallToolResult, type InputHandlers } from '@decorum/client';
import { McpServer, Tool, type ToolContext } from '@decorum/core';
import { Type, type Static } from 'typebox';
import { discoverAnswer, rawEndpoint } from './support/raw-endpoint.js';
import { fixture, serveHttp, type HttpServer } from './support/servers.js';

const summary = (result: CallToolResult) => JSON.parse((result.content[0] as { text: string }).text) as { results: number; errors: Record<string, number> };
const urlAsk = (url: string) => ({ method: 'elicitation/create', params: { mode: 'url', message: 'Sign in, please', url, elicitationId: 'e1' } });

/** An elicitation handler that notes every request it is shown. */
function noting() {
  const shown: unknown[] = [];
  const elicitation: InputHandlers['elicitation'] = (request) => (shown.push(request), { action: 'accept' });
  return { shown, elicitation };
}

describe('URL elicitation from a legacy server over stdio', () => {
  test('to a client that declared forms only: refused with -32602 before the handler runs', async () => {
    const { shown, elicitation } = noting();
    const client = await McpClient.connect(fixture('hostile-asker.mjs'), { elicitation });
    try {
      expect(summary(await client.callTool('ask', urlAsk('javascript:alert(document.cookie)')))).toEqual({
        results: 0,
        errors: {
          '-32602 The server asked for elicitation/create with mode "url", which the client did not declare; the ask was refused and no handler ran': 1,
        },
      });
      expect(shown).toEqual([]);
    } finally {
      await client.close();
    }
  });

  test('to a client that declared url mode: a javascript: (or file:, or relative) URL is refused with -32602; an https URL reaches the handler', async () => {
    const { shown, elicitation } = noting();
    const client = await McpClient.connect(fixture('hostile-asker.mjs'), { elicitation, elicitationUrl: true });
    try {
      for (const url of ['javascript:alert(document.cookie)', 'file:///etc/passwd', '/relative']) {
        expect(summary(await client.callTool('ask', urlAsk(url)))).toEqual({
          results: 0,
          errors: {
            [`-32602 The server asked for elicitation/create with a url that is not an absolute http(s) URL (${JSON.stringify(url)}); the ask was refused and no handler ran`]: 1,
          },
        });
      }
      expect(shown).toEqual([]);
      expect(summary(await client.callTool('ask', urlAsk('https://auth.example.com/connect?e=1')))).toEqual({ results: 1, errors: {} });
      expect(shown).toEqual([expect.objectContaining({ mode: 'url', url: 'https://auth.example.com/connect?e=1' })]);
    } finally {
      await client.close();
    }
  });
});

const Link = Type.Object({ url: Type.String() });

@McpServer({ name: 'linker', version: '1.0.0' })
class LinkServer {
  @Tool({ description: 'Sends the user to a URL', input: Link })
  async visit(args: Static<typeof Link>, ctx: ToolContext) {
    const answer = await ctx.elicit({ mode: 'url', message: 'Open this', url: args.url });
    return `user said ${answer.action}`;
  }
}

describe('URL elicitation in a modern input_required round over HTTP', () => {
  let http: HttpServer;
  beforeAll(async () => (http = await serveHttp({ servers: [LinkServer] })));
  afterAll(() => http.close());

  test('a javascript: URL fails the call with AskRefusedError before the handler runs; an https one is answered', async () => {
    const { shown, elicitation } = noting();
    const client = await McpClient.connect({ url: http.url }, { elicitation, elicitationUrl: true });
    try {
      const call = client.callTool('visit', { url: 'javascript:alert(1)' });
      await expect(call).rejects.toBeInstanceOf(AskRefusedError);
      await expect(call).rejects.toMatchObject({ code: 'DECORUM_ERR_ASK_REFUSED', method: 'elicitation/create' });
      await expect(call).rejects.toThrow('with a url that is not an absolute http(s) URL ("javascript:alert(1)")');
      expect(shown).toEqual([]);
      expect((await client.callTool('visit', { url: 'https://example.com/pay' })).content).toEqual([{ type: 'text', text: 'user said accept' }]);
      expect(shown).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  test('a url-mode ask to a client that declared forms only (a raw server ignoring the capabilities) fails the call; the handler never runs', async () => {
    const { server, url } = await rawEndpoint((body, _headers, res) => {
      res.setHeader('content-type', 'application/json');
      if (body.method === 'server/discover') return res.end(JSON.stringify(discoverAnswer(body.id)));
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: body.id,
          result: { resultType: 'input_required', inputRequests: { go: urlAsk('https://example.com/ok') }, requestState: 'opaque' },
        }),
      );
    });
    const { shown, elicitation } = noting();
    const client = await McpClient.connect({ url }, { elicitation });
    try {
      await expect(client.callTool('anything')).rejects.toThrow(
        new AskRefusedError('elicitation/create', 'mode "url", which the client did not declare').message,
      );
      expect(shown).toEqual([]);
    } finally {
      await client.close();
      server.close();
    }
  });
});
