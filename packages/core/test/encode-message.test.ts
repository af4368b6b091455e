import { encodeMessage, RawJson, type BodyEncoding, type EngineResponse } from '@decorum/core/transport';

const AS_BODY: BodyEncoding = { body: true };
const bytesOf = (message: EngineResponse): Buffer => {
  const body = encodeMessage(message, AS_BODY);
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
};

describe('encodeMessage as an HTTP body', () => {
  const page = new RawJson('{"resultType":"complete","tools":[{"name":"météo","description":"☂ – 雨"}]}');
  const cases: Array<[string, EngineResponse]> = [
    ['a pre-serialized result, integer id', { jsonrpc: '2.0', id: 7, result: page }],
    ['a pre-serialized result, string id that needs escaping', { jsonrpc: '2.0', id: 'a"b\\c\u2028', result: page }],
    ['an ordinary result', { jsonrpc: '2.0', id: 1, result: { resultType: 'complete', content: [{ type: 'text', text: 'héllo' }] } as never }],
    ['an error', { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'Unknown tool: ☂' } }],
  ];

  it.each(cases)('gives the UTF-8 bytes of the text for %s', (_name, message) => {
    const bytes = bytesOf(message);
    expect(bytes.toString('utf8')).toBe(encodeMessage(message));
    expect(JSON.parse(bytes.toString('utf8'))).toEqual(JSON.parse(encodeMessage(message)));
  });

  it.each(cases)('gives bytes for a pre-serialized page, else text, for %s', (_name, message) => {
    const body = encodeMessage(message, AS_BODY);
    expect(typeof body).toBe('result' in message && message.result instanceof RawJson ? 'object' : 'string');
  });

  it("gives a page of at least piecesFrom bytes in pieces (the page's own bytes, not a copy), a smaller one whole", () => {
    const message: EngineResponse = { jsonrpc: '2.0', id: 3, result: page };
    const size = page.bytes.length;
    const pieces = encodeMessage(message, { body: true, piecesFrom: size });
    expect(Array.isArray(pieces)).toBe(true);
    const [head, bytes, tail] = pieces as readonly Buffer[];
    expect(bytes).toBe(page.bytes);
    expect(Buffer.concat([head, bytes, tail]).equals(bytesOf(message))).toBe(true);
    const whole = encodeMessage(message, { body: true, piecesFrom: size + 1 });
    expect(Buffer.isBuffer(whole) && whole.equals(bytesOf(message))).toBe(true);
  });

  it('encodes a page once and reuses its bytes', () => {
    const raw = new RawJson('{"x":1}');
    expect(raw.bytes).toBe(raw.bytes);
    expect(bytesOf({ jsonrpc: '2.0', id: 1, result: raw }).toString()).toBe('{"jsonrpc":"2.0","id":1,"result":{"x":1}}');
  });
});

describe('encodeMessage of what JSON cannot hold', () => {
  const cyclic = (): Record<string, unknown> => {
    const result: Record<string, unknown> = { content: [] };
    result.self = result;
    return result;
  };
  const answer = (id: EngineResponse['id'], result: unknown): EngineResponse => ({ jsonrpc: '2.0', id, result }) as never;
  const notification = (params: Record<string, unknown>) => ({ jsonrpc: '2.0' as const, method: 'notifications/progress', params });

  it('throws without a listener', () => {
    expect(() => encodeMessage(answer(1, cyclic()))).toThrow(TypeError);
    expect(() => encodeMessage(answer(1, { content: [], big: 1n }))).toThrow(TypeError);
  });

  it('with a listener, tells it and answers -32603 for the same id, in every form', () => {
    const told: unknown[] = [];
    const listener = (error: unknown) => told.push(error);
    for (const encoding of [undefined, AS_BODY, { body: true, piecesFrom: 1 } as const]) {
      const json = encodeMessage(answer('a', cyclic()), encoding as BodyEncoding, listener);
      expect(JSON.parse(String(json))).toMatchObject({ jsonrpc: '2.0', id: 'a', error: { code: -32603 } });
    }
    expect(told).toHaveLength(3);
    expect(told[0]).toBeInstanceOf(TypeError);
  });

  it('with a listener, drops a notification (undefined)', () => {
    const told: unknown[] = [];
    expect(encodeMessage(notification({ big: 1n }), undefined, (error) => told.push(error))).toBeUndefined();
    expect(told).toHaveLength(1);
  });

  it('writes a bigint id as its exact digits, and with exactIntegers every bigint in the message', () => {
    const id = 1152921504606846976n;
    expect(encodeMessage(answer(id, { content: [] }))).toBe('{"jsonrpc":"2.0","id":1152921504606846976,"result":{"content":[]}}');
    const listened = notification({ _meta: { 'io.modelcontextprotocol/subscriptionId': id }, progress: 1 });
    expect(() => encodeMessage(listened)).toThrow(TypeError);
    expect(encodeMessage(listened, { exactIntegers: true })).toBe(
      '{"jsonrpc":"2.0","method":"notifications/progress","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":1152921504606846976},"progress":1}}',
    );
    const closing = answer(id, { content: [], _meta: { 'io.modelcontextprotocol/subscriptionId': -id } });
    expect(JSON.parse(String(encodeMessage(closing, { body: true, exactIntegers: true })).replace(/(-?\d{16,})/g, '"$1"'))).toEqual({
      jsonrpc: '2.0',
      id: '1152921504606846976',
      result: { content: [], _meta: { 'io.modelcontextprotocol/subscriptionId': '-1152921504606846976' } },
    });
  });

  it('with exactIntegers, a cycle still goes to the listener', () => {
    const told: unknown[] = [];
    const json = encodeMessage(answer(5n, cyclic()), { exactIntegers: true }, (error) => told.push(error));
    expect(json).toBe('{"id":5,"jsonrpc":"2.0","error":{"code":-32603,"message":"Internal error"}}');
    expect(told).toHaveLength(1);
  });
});
