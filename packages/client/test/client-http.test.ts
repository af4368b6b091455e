import { connect, ForbiddenError, RequestCancelledError, UnauthorizedError, MessageTooLargeError } from '@decorum/client';
import { encodeHeaderValue } from '../src/transports/header-value.js';
import { EverythingServer } from '../../../examples/everything/src/everything.js';
import { WeatherServer } from '../../../examples/weather/src/weather.js';
import { discoverAnswer, rawEndpoint } from './support/raw-endpoint.js';
import { serveHttp, type HttpServer } from './support/servers.js';

describe('McpClient over Streamable HTTP', () => {
  let http: HttpServer;
  beforeAll(async () => {
    http = await serveHttp({ servers: [EverythingServer] });
  });
  afterAll(() => http.close());

  test('modern: the required headers pass the server checks, x-mcp-header is mirrored, progress arrives over SSE', async () => {
    const client = await connect({ url: http.url });
    try {
      expect(client.era).toBe('modern');
      const tools = [];
      for await (const tool of client.tools()) tools.push(tool.name);
      expect(tools).toContain('test_x_mcp_header');
      // The server rejects a missing or mismatched Mcp-Param-Region with -32020: this call proves it was sent right.
      expect((await client.callTool('test_x_mcp_header', { region: 'Zürich ' })).content[0]).toMatchObject({ text: 'Region: Zürich ' });
      const progress: number[] = [];
      const result = await client.callTool('test_tool_with_progress', {}, { onProgress: (p) => progress.push(p.progress) });
      expect(result.isError).toBeFalsy();
      expect(progress.length).toBeGreaterThan(0);
      const read = await client.readResource('test://static-text');
      expect(read.contents[0]).toMatchObject({ text: expect.stringContaining('static text') });
    } finally {
      await client.close();
    }
  });

  test('MRTR over HTTP, and aborting a request closes its stream', async () => {
    const client = await connect({ url: http.url }, { elicitation: async () => ({ action: 'accept', content: { name: 'Grace' } }) });
    try {
      expect((await client.callTool('test_input_required_result_elicitation')).content[0]).toMatchObject({ text: 'Hello, Grace!' });
      const controller = new AbortController();
      const pending = client.subscribe({ toolsListChanged: true }, { reconnect: false });
      await pending.acknowledged;
      await pending.close();
      const call = client.callTool('test_tool_with_progress', {}, { signal: controller.signal, onProgress: () => controller.abort('user gave up') });
      await expect(call).rejects.toBeInstanceOf(RequestCancelledError);
    } finally {
      await client.close();
    }
  });

  test('a tool whose x-mcp-header is invalid is dropped from the view, with a warning', async () => {
    const { url, server } = await rawEndpoint((body, _headers, res) => {
      res.setHeader('content-type', 'application/json');
      if (body.method === 'server/discover') return res.end(JSON.stringify(discoverAnswer(body.id)));
      const schema = (header: string, type = 'string') => ({ type: 'object', properties: { a: { type, 'x-mcp-header': header } } });
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: body.id,
          result: {
            resultType: 'complete',
            ttlMs: 0,
            cacheScope: 'public',
            tools: [
              { name: 'good', inputSchema: schema('Region') },
              { name: 'spaced', inputSchema: schema('Has Space') },
              { name: 'numeric', inputSchema: schema('N', 'number') },
            ],
          },
        }),
      );
    });
    const warnings: string[] = [];
    const client = await connect({ url }, { onWarning: (w) => warnings.push(w) });
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['good']);
      expect(warnings).toEqual([expect.stringContaining('Dropped tool "spaced"'), expect.stringContaining('Dropped tool "numeric"')]);
    } finally {
      await client.close();
      server.close();
    }
  });

  test('Mcp-Name is base64 when unsafe; 401 surfaces the challenge; the token provider gets a retry; a too-large answer fails clearly', async () => {
    const seen: Array<Record<string, unknown>> = [];
    let huge = false;
    const { url, server } = await rawEndpoint((body, headers, res) => {
      seen.push({
        method: body?.method,
        name: headers['mcp-name'],
        auth: headers.authorization,
        version: headers['mcp-protocol-version'],
        mcpMethod: headers['mcp-method'],
      });
      if (headers.authorization !== 'Bearer good') {
        res.statusCode = 401;
        res.setHeader(
          'www-authenticate',
          'Bearer error="invalid_token", resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp", scope="files:read"',
        );
        return res.end();
      }
      res.setHeader('content-type', 'application/json');
      if (body.method === 'server/discover') return res.end(JSON.stringify(discoverAnswer(body.id)));
      if (huge)
        return res.end(
          JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { resultType: 'complete', content: [{ type: 'text', text: 'x'.repeat(2_000_000) }] } }),
        );
      res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { resultType: 'complete', content: [] } }));
    });
    try {
      await expect(connect({ url })).rejects.toMatchObject({ constructor: UnauthorizedError, challenge: { error: 'invalid_token', scopes: ['files:read'] } });
      const tokens: string[] = [];
      const client = await connect(
        {
          url,
          token: ({ challenge }) => {
            const t = challenge ? 'good' : 'stale';
            tokens.push(t);
            return t;
          },
        },
        { maxMessageBytes: 1_000_000 },
      );
      await client.callTool('天気', {});
      const call = seen.find((s) => s.method === 'tools/call' && s.auth === 'Bearer good')!;
      expect(call).toMatchObject({ name: encodeHeaderValue('天気'), version: '2026-07-28', mcpMethod: 'tools/call' });
      expect(call.name).toBe(`=?base64?${Buffer.from('天気').toString('base64')}?=`);
      huge = true;
      await expect(client.callTool('x', {})).rejects.toBeInstanceOf(MessageTooLargeError);
      await client.close();
    } finally {
      server.close();
    }
  });

  test('a JSON Schema 2020-12 inputSchema reaches the caller verbatim, and goes back verbatim as an argument (SEP-1613, SEP-2106)', async () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { address: { $anchor: 'addressDef', type: 'object', properties: { city: { type: 'string' } } } },
      properties: {
        address: { $ref: '#/$defs/address' },
        contact: { type: 'string', enum: ['phone', 'email'] },
        phone: { type: 'string' },
        email: { type: 'string' },
      },
      allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
      if: { properties: { contact: { const: 'phone' } }, required: ['contact'] },
      then: { required: ['phone'] },
      else: { required: ['email'] },
      additionalProperties: false,
    };
    let echoed: unknown;
    const { url, server } = await rawEndpoint((body, _headers, res) => {
      res.setHeader('content-type', 'application/json');
      if (body.method === 'server/discover') return res.end(JSON.stringify(discoverAnswer(body.id)));
      if (body.method === 'tools/list')
        return res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: body.id,
            result: { resultType: 'complete', ttlMs: 0, cacheScope: 'public', tools: [{ name: 'rich', inputSchema: schema }] },
          }),
        );
      echoed = body.params.arguments.schema;
      res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { resultType: 'complete', content: [] } }));
    });
    const client = await connect({ url });
    try {
      const [rich] = (await client.listTools()).tools;
      expect(rich.inputSchema).toStrictEqual(schema);
      await client.callTool('echo', { schema: rich.inputSchema });
      expect(echoed).toStrictEqual(schema);
    } finally {
      await client.close();
      server.close();
    }
  });

  test('HTTP 403: ForbiddenError with the scope the challenge asks for, or without a challenge (e.g. a refused Origin); the client keeps serving', async () => {
    const { url, server } = await rawEndpoint((body, _headers, res) => {
      if (body.method === 'tools/call' && body.params.name === 'write') {
        res.writeHead(403, {
          'www-authenticate':
            'Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp"',
        });
        return res.end();
      }
      if (body.method === 'tools/call' && body.params.name === 'elsewhere') {
        res.writeHead(403, { 'content-type': 'text/plain' });
        return res.end('Forbidden: Origin not allowed');
      }
      res.setHeader('content-type', 'application/json');
      if (body.method === 'server/discover') return res.end(JSON.stringify(discoverAnswer(body.id)));
      res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { resultType: 'complete', content: [{ type: 'text', text: 'ok' }] } }));
    });
    const client = await connect({ url });
    try {
      const scoped = client.callTool('write');
      await expect(scoped).rejects.toMatchObject({
        constructor: ForbiddenError,
        code: 'DECORUM_ERR_FORBIDDEN',
        challenge: { error: 'insufficient_scope', scopes: ['files:read', 'files:write'] },
      });
      await expect(scoped).rejects.toThrow('The server refused the request (HTTP 403; it needs scope files:read files:write)');
      await expect(client.callTool('elsewhere')).rejects.toMatchObject({
        constructor: ForbiddenError,
        challenge: undefined,
        message: 'The server refused the request (HTTP 403)',
      });
      expect((await client.callTool('read')).content).toEqual([{ type: 'text', text: 'ok' }]);
    } finally {
      await client.close();
      server.close();
    }
  });

  test('a -32020 caused by a stale schema: tools/list is fetched again and the call retried once with the new headers (H-28)', async () => {
    let lists = 0;
    const calls: Array<string | undefined> = [];
    const { url, server } = await rawEndpoint((body, headers, res) => {
      res.setHeader('content-type', 'application/json');
      if (body.method === 'server/discover') return res.end(JSON.stringify(discoverAnswer(body.id)));
      if (body.method === 'tools/list') {
        lists++;
        const region = lists === 1 ? { type: 'string' } : { type: 'string', 'x-mcp-header': 'Region' };
        return res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: body.id,
            result: {
              resultType: 'complete',
              ttlMs: 60_000,
              cacheScope: 'public',
              tools: [{ name: 'where', inputSchema: { type: 'object', properties: { region: region } } }],
            },
          }),
        );
      }
      calls.push(headers['mcp-param-region'] as string | undefined);
      if (headers['mcp-param-region'] !== 'eu') {
        res.statusCode = 400;
        return res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, error: { code: -32020, message: 'Header mismatch: Mcp-Param-Region header missing' } }));
      }
      res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { resultType: 'complete', content: [{ type: 'text', text: 'eu' }] } }));
    });
    const client = await connect({ url });
    try {
      await client.listTools();
      expect((await client.callTool('where', { region: 'eu' })).content).toEqual([{ type: 'text', text: 'eu' }]);
      expect(calls).toEqual([undefined, 'eu']);
      expect(lists).toBe(2);
    } finally {
      await client.close();
      server.close();
    }
  });

  test('the weather example over HTTP', async () => {
    const weather = await serveHttp({ servers: [WeatherServer] });
    const client = await connect({ url: weather.url });
    expect((await client.callTool('weather_current', { location: 'London' })).content[0]).toMatchObject({ text: expect.stringContaining('Light rain') });
    await client.close();
    await weather.close();
  });
});
