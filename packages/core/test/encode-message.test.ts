import { encodeMessage, encodeMessageBody, encodeMessageBytes, RawJson, type EngineResponse } from '@decorum/core/transport';

describe('encodeMessageBytes', () => {
  const page = new RawJson('{"resultType":"complete","tools":[{"name":"météo","description":"☂ – 雨"}]}');
  const cases: Array<[string, EngineResponse]> = [
    ['a pre-serialized result, integer id', { jsonrpc: '2.0', id: 7, result: page }],
    ['a pre-serialized result, string id that needs escaping', { jsonrpc: '2.0', id: 'a"b\\c\u2028', result: page }],
    ['an ordinary result', { jsonrpc: '2.0', id: 1, result: { resultType: 'complete', content: [{ type: 'text', text: 'héllo' }] } as never }],
    ['an error', { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'Unknown tool: ☂' } }],
  ];

  it.each(cases)('gives the UTF-8 bytes of encodeMessage for %s', (_name, message) => {
    const bytes = encodeMessageBytes(message);
    expect(bytes.toString('utf8')).toBe(encodeMessage(message));
    expect(JSON.parse(bytes.toString('utf8'))).toEqual(JSON.parse(encodeMessage(message)));
  });

  it.each(cases)('gives an HTTP body with the same bytes for %s (bytes for a pre-serialized page, else text)', (_name, message) => {
    const body = encodeMessageBody(message);
    expect(Buffer.from(body).equals(encodeMessageBytes(message))).toBe(true);
    expect(typeof body).toBe('result' in message && message.result instanceof RawJson ? 'object' : 'string');
  });

  it("gives a page of at least piecesFrom bytes in pieces (the page's own bytes, not a copy), a smaller one whole", () => {
    const message: EngineResponse = { jsonrpc: '2.0', id: 3, result: page };
    const size = page.bytes.length;
    const pieces = encodeMessageBody(message, size);
    expect(Array.isArray(pieces)).toBe(true);
    const [head, bytes, tail] = pieces as readonly Buffer[];
    expect(bytes).toBe(page.bytes);
    expect(Buffer.concat([head, bytes, tail]).equals(encodeMessageBytes(message))).toBe(true);
    const whole = encodeMessageBody(message, size + 1);
    expect(Buffer.isBuffer(whole) && whole.equals(encodeMessageBytes(message))).toBe(true);
  });

  it('encodes a page once and reuses its bytes', () => {
    const raw = new RawJson('{"x":1}');
    expect(raw.bytes).toBe(raw.bytes);
    expect(encodeMessageBytes({ jsonrpc: '2.0', id: 1, result: raw }).toString()).toBe('{"jsonrpc":"2.0","id":1,"result":{"x":1}}');
  });
});
