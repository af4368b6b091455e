import 'reflect-metadata';
import { IsString } from 'class-validator';
import { McpServer, Tool } from '@decorum/core';
import { errorResponse, parseJson } from '@decorum/core/transport';
import { harness } from './support/engine-harness.js';
import { meta, request } from '@decorum-internal/test-support';

class EchoArgs {
  @IsString() text!: string;
}

@McpServer({ name: 'envelope', version: '1.0.0' })
class EnvelopeServer {
  @Tool() echo(args: EchoArgs) {
    return args.text;
  }
}

const { call } = harness([EnvelopeServer]);

describe('JSON-RPC envelope', () => {
  test('malformed JSON text is -32700 without id', () => {
    let response;
    try {
      parseJson('{"jsonrpc":"2.0",');
    } catch (error) {
      response = errorResponse(undefined, error);
    }
    expect(response).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: expect.stringContaining('not valid JSON') } });
  });

  test('a batch is one -32600 without id and runs nothing', async () => {
    const response = await call([request(1, 'server/discover'), request(2, 'tools/list')]);
    expect(response).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: expect.stringContaining('batches') } });
  });

  test.each([
    ['null id', { jsonrpc: '2.0', id: null, method: 'tools/list', params: { _meta: meta() } }, '"id"'],
    ['fractional id', { jsonrpc: '2.0', id: 1.5, method: 'tools/list', params: { _meta: meta() } }, '"id"'],
    ['object id', { jsonrpc: '2.0', id: {}, method: 'tools/list', params: { _meta: meta() } }, '"id"'],
    ['wrong jsonrpc', { jsonrpc: '1.0', id: 1, method: 'tools/list' }, '"jsonrpc"'],
    ['missing method', { jsonrpc: '2.0', id: 1 }, '"method"'],
    ['array params', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: [] }, '"params"'],
    ['a string', 'hello', 'object'],
  ])('%s is -32600', async (_name, message, mentions) => {
    const response = await call(message);
    expect(response?.error.code).toBe(-32600);
    expect(response?.error.message).toContain(mentions);
    expect(response).not.toHaveProperty('id');
  });

  test('notifications get no reply', async () => {
    expect(await call({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9 } })).toBeUndefined();
    expect(await call({ jsonrpc: '2.0', method: 'notifications/whatever' })).toBeUndefined();
  });

  test('a response object sent to the server gets no reply', async () => {
    expect(await call({ jsonrpc: '2.0', id: 4, result: {} })).toBeUndefined();
  });

  test('string and integer ids are echoed with their type', async () => {
    expect((await call(request('abc', 'server/discover')))?.id).toBe('abc');
    expect((await call(request(7, 'server/discover')))?.id).toBe(7);
  });
});

describe('_meta', () => {
  test('a request without params is -32602', async () => {
    const response = await call({ jsonrpc: '2.0', id: 5, method: 'tools/list' });
    expect(response).toMatchObject({ id: 5, error: { code: -32602, message: expect.stringContaining('_meta') } });
  });

  test('missing protocolVersion is -32602', async () => {
    const response = await call({ jsonrpc: '2.0', id: 6, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/clientCapabilities': {} } } });
    expect(response).toMatchObject({ id: 6, error: { code: -32602, message: expect.stringContaining('protocolVersion') } });
  });

  test('missing clientCapabilities is -32602', async () => {
    const response = await call({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/list',
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
    });
    expect(response).toMatchObject({ id: 7, error: { code: -32602, message: expect.stringContaining('clientCapabilities') } });
  });

  test('an unsupported version is -32022 with supported and requested', async () => {
    const response = await call({
      jsonrpc: '2.0',
      id: 8,
      method: 'server/discover',
      params: { _meta: { ...meta(), 'io.modelcontextprotocol/protocolVersion': '1900-01-01' } },
    });
    expect(response).toEqual({
      jsonrpc: '2.0',
      id: 8,
      error: { code: -32022, message: expect.stringContaining('1900-01-01'), data: { supported: ['2026-07-28'], requested: '1900-01-01' } },
    });
  });

  test('a legacy initialize is told which versions this server speaks', async () => {
    const response = await call({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'old', version: '1' } },
    });
    expect(response?.error.code).toBe(-32022);
    expect(response?.error.message).toContain('2026-07-28');
    expect(response?.error.data).toEqual({ supported: ['2026-07-28'], requested: '2025-11-25' });
  });

  test('an initialize carrying the modern _meta is just an unknown method', async () => {
    expect((await call(request('init2', 'initialize', { protocolVersion: '2026-07-28' })))?.error.code).toBe(-32601);
  });

  test('an unknown log level is -32602', async () => {
    const response = await call(request(9, 'tools/list', {}, { logLevel: 'verbose' }));
    expect(response?.error).toMatchObject({ code: -32602, message: expect.stringContaining('verbose') });
  });

  test('a non-integer progress token is -32602', async () => {
    const response = await call({ jsonrpc: '2.0', id: 10, method: 'tools/list', params: { _meta: { ...meta(), progressToken: 1.5 } } });
    expect(response?.error.code).toBe(-32602);
  });
});

describe('routing', () => {
  test('an unknown method is -32601', async () => {
    expect((await call(request(11, 'foo/bar')))?.error).toMatchObject({ code: -32601, message: expect.stringContaining('foo/bar') });
  });

  test.each(['ping', 'logging/setLevel', 'resources/subscribe', 'notifications/initialized'])('legacy method %s is -32601', async (method) => {
    expect((await call(request(12, method)))?.error.code).toBe(-32601);
  });

  test('a method of a capability the server does not serve is -32601', async () => {
    expect((await call(request(13, 'prompts/list')))?.error.code).toBe(-32601);
    expect((await call(request(14, 'resources/read', { uri: 'x://y' })))?.error.code).toBe(-32601);
  });

  test('every result names the server and has a resultType', async () => {
    for (const [method, params] of [
      ['server/discover', {}],
      ['tools/list', {}],
      ['tools/call', { name: 'echo', arguments: { text: 'hi' } }],
    ] as const) {
      const response = await call(request(15, method, params));
      expect(response?.result.resultType).toBe('complete');
      expect(response?.result._meta['io.modelcontextprotocol/serverInfo']).toEqual({ name: 'envelope', version: '1.0.0' });
    }
  });
});
