import { connect, InvalidResultError } from '@decorum/client';
import { discoverAnswer, rawEndpoint } from './support/raw-endpoint.js';

/**
 * A modern server whose tools/list answers from `pages`, keyed by the cursor asked for (`null`:
 * none), counting the requests. Nothing is cacheable (ttlMs 0): every page is a request.
 */
async function pagedServer(pages: Record<string, { tools: string[]; nextCursor?: string }>) {
  const asked: (string | null)[] = [];
  const endpoint = await rawEndpoint((body, _headers, res) => {
    res.setHeader('content-type', 'application/json');
    if (body.method === 'server/discover') return res.end(JSON.stringify(discoverAnswer(body.id)));
    const cursor: string | null = body.params.cursor ?? null;
    asked.push(cursor);
    const page = pages[String(cursor)];
    const tools = page.tools.map((name) => ({ name, inputSchema: { type: 'object' } }));
    res.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: body.id,
        result: { resultType: 'complete', ttlMs: 0, cacheScope: 'public', tools, ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }) },
      }),
    );
  });
  return { ...endpoint, asked };
}

describe('pagination as async iterators', () => {
  test('every page in order, each cursor sent back as given ("" is a cursor too); pages are fetched as the loop asks for them', async () => {
    const { url, server, asked } = await pagedServer({
      null: { tools: ['a', 'b'], nextCursor: 'page-2' },
      'page-2': { tools: ['c'], nextCursor: '' },
      '': { tools: ['d'] },
    });
    const client = await connect({ url });
    try {
      const names: string[] = [];
      for await (const tool of client.tools()) names.push(tool.name);
      expect(names).toEqual(['a', 'b', 'c', 'd']);
      expect(asked).toEqual([null, 'page-2', '']);
      asked.length = 0;
      for await (const tool of client.tools()) if (tool.name === 'a') break;
      expect(asked).toEqual([null]);
    } finally {
      await client.close();
      server.close();
    }
  });

  test('a server that hands back a cursor it already gave ends the loop with InvalidResultError instead of paging forever', async () => {
    const { url, server, asked } = await pagedServer({
      null: { tools: ['a'], nextCursor: 'page-2' },
      'page-2': { tools: ['b'], nextCursor: 'page-3' },
      'page-3': { tools: ['c'], nextCursor: 'page-2' },
    });
    const client = await connect({ url });
    try {
      const names: string[] = [];
      const loop = (async () => {
        for await (const tool of client.tools()) names.push(tool.name);
      })();
      await expect(loop).rejects.toBeInstanceOf(InvalidResultError);
      await expect(loop).rejects.toThrow('tools/list repeated the cursor "page-2"');
      expect(names).toEqual(['a', 'b', 'c']);
      expect(asked).toEqual([null, 'page-2', 'page-3']);
    } finally {
      await client.close();
      server.close();
    }
  });
});
