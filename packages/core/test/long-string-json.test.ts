import { encodeMessage, LongTextJson, type BodyEncoding, type EngineResponse } from '@decorum/core/transport';

const AS_BODY: BodyEncoding = { body: true };
const bytesOf = (message: EngineResponse): Buffer => {
  const body = encodeMessage(message, AS_BODY);
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
};

/**
 * Every encoder must give exactly JSON.stringify's text (and its UTF-8 bytes), whatever the long
 * strings hold; so must the pieces of a body with a long text set apart, whose text is ASCII
 * between the quotes its head ends and its tail begins with. Returns those pieces, if there are.
 */
const expectStringifyBytes = (message: EngineResponse, longTextChars = 1024): LongTextJson | undefined => {
  const json = JSON.stringify(message);
  expect(encodeMessage(message)).toBe(json);
  expect(encodeMessage(message, AS_BODY)).toBe(json);
  const bytes = bytesOf(message);
  expect(bytes.toString('utf8')).toBe(json);
  expect(bytes.equals(Buffer.from(json, 'utf8'))).toBe(true);
  const body = encodeMessage(message, { body: true, piecesFrom: longTextChars });
  if (!(body instanceof LongTextJson)) {
    expect(body).toBe(json);
    return undefined;
  }
  expect(body.head + body.text + body.tail).toBe(json);
  expect(String(body)).toBe(json);
  expect(body.byteLength).toBe(Buffer.byteLength(json));
  expect(body.text.length).toBeGreaterThanOrEqual(longTextChars);
  expect(Buffer.byteLength(body.text)).toBe(body.text.length);
  expect(body.head.endsWith('"')).toBe(true);
  expect(body.tail.startsWith('"')).toBe(true);
  return body;
};
const textResult = (id: string | number, ...texts: string[]): EngineResponse =>
  ({
    jsonrpc: '2.0',
    id,
    result: {
      resultType: 'complete',
      content: texts.map((text) => ({ type: 'text', text })),
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'x', version: '1' } },
    },
  }) as never;

describe('encoding results with long strings in content blocks', () => {
  const long = 'x'.repeat(65_536);

  it('writes a long clean ASCII text as JSON.stringify would', () => {
    expectStringifyBytes(textResult(1, long));
    expectStringifyBytes(textResult('req-"1"\u2028', long));
    expectStringifyBytes(textResult(1, 'y'.repeat(1024)));
    expectStringifyBytes(textResult(1, 'y'.repeat(1023)));
  });

  // Every byte JSON escapes in ASCII, at every alignment and in the last bytes (the check reads
  // sixteen bytes at a time, then what is left one by one).
  const escapes = ['"', '\\', '\n', '\r', '\t', '\u0000', '\u0001', '\u001f', '\b', '\f'];
  it.each(escapes)('escapes %j wherever it stands in a long text', (char) => {
    const firstAndLast = (n: number) => [...Array.from({ length: n }, (_, i) => i), 500, ...Array.from({ length: n }, (_, i) => 2047 - i)];
    for (const at of firstAndLast(18)) {
      const text = `${'a'.repeat(at)}${char}${'b'.repeat(2047 - at)}`;
      expectStringifyBytes(textResult(1, text));
      expectStringifyBytes(textResult(1, 'short', text, long));
    }
  });

  it('checks each string alone, whatever longer one was checked before it (one scratch buffer)', () => {
    const dirty = `${'a'.repeat(60_000)}"${'b'.repeat(10)}`;
    expectStringifyBytes(textResult(1, dirty));
    expectStringifyBytes(textResult(2, 'c'.repeat(2000)));
    expectStringifyBytes(textResult(3, `${'c'.repeat(2000)}\n`));
    // Past the scratch buffer's bound (1 MiB), a buffer of its own.
    expectStringifyBytes(textResult(4, 'd'.repeat(1_500_000)));
    expectStringifyBytes(textResult(5, `${'d'.repeat(1_500_000)}\u0007`));
  });

  // A Buffer per answer is freed only by the garbage collector; in bursts that made the allocator
  // hand memory back and fault it in again (~20 page faults per 64 KiB echo). Node frees the
  // encoding of a string body as soon as it is written.
  it('makes an HTTP body with a long text a string, not a Buffer', () => {
    expect(typeof encodeMessage(textResult(1, long), AS_BODY)).toBe('string');
  });

  it('sets apart, for a transport that writes pieces, the first plain ASCII text of at least the length asked', () => {
    expect(expectStringifyBytes(textResult(1, long))?.text).toBe(long);
    expect(expectStringifyBytes(textResult('id-"x"', 'short', 'é'.repeat(5000), long, 'z'.repeat(70_000)))?.text).toBe(long);
    expect(expectStringifyBytes(textResult(2, 'y'.repeat(8191)), 8192)).toBeUndefined();
    expect(expectStringifyBytes(textResult(2, 'y'.repeat(8192)), 8192)?.text).toBe('y'.repeat(8192));
    // Neither a text JSON escapes nor one that is not ASCII: their JSON is not their bytes.
    expect(expectStringifyBytes(textResult(3, `${long}\n`))).toBeUndefined();
    expect(expectStringifyBytes(textResult(3, `${long}é`))).toBeUndefined();
    // Never without `longTextChars`, and never a page or an error.
    expect(encodeMessage(textResult(4, long), AS_BODY)).toBe(JSON.stringify(textResult(4, long)));
    const error = { jsonrpc: '2.0', id: 5, error: { code: -32602, message: long } } as EngineResponse;
    expect(encodeMessage(error, { body: true, piecesFrom: 1024 })).toBe(JSON.stringify(error));
  });

  it('sets apart a long text with non-ASCII members around it, whose bytes count as UTF-8', () => {
    const message = {
      jsonrpc: '2.0',
      id: 'ü',
      result: { resultType: 'complete', content: [{ type: 'text', text: long, annotations: { audience: ['usér ☂'] } }], structuredContent: { note: '🌧' } },
    } as EngineResponse;
    expect(expectStringifyBytes(message)?.tail).toContain('🌧');
  });

  it('keeps the bytes JSON does not escape (DEL, space, the top of ASCII) raw', () => {
    let ascii = '';
    for (let c = 0x20; c < 0x80; c++) if (c !== 0x22 && c !== 0x5c) ascii += String.fromCharCode(c);
    expectStringifyBytes(textResult(1, ascii.repeat(20)));
  });

  it.each([
    ['accented text', 'é'.repeat(2000)],
    ['an emoji', `${'a'.repeat(3000)}☂🌧`],
    ['a lone surrogate', `${'a'.repeat(3000)}\ud800${'b'.repeat(10)}`],
    ['U+2028', `${'a'.repeat(3000)}\u2028`],
  ])('escapes a long non-ASCII text (%s) as JSON.stringify does', (_name, text) => {
    expectStringifyBytes(textResult(7, text));
  });

  it('handles image, audio and mixed blocks, extra result fields and skipped values', () => {
    const data = Buffer.alloc(30_000, 7).toString('base64');
    expectStringifyBytes({
      jsonrpc: '2.0',
      id: 'a',
      result: {
        resultType: 'complete',
        content: [
          { type: 'image', data, mimeType: 'image/png', annotations: { priority: 1 } },
          { type: 'audio', data, mimeType: 'audio/wav' },
          { type: 'text', text: long, skipped: undefined },
        ],
        structuredContent: { n: 1, text: long },
        isError: false,
        dropped: undefined,
      },
    } as never);
  });

  it('leaves what it does not understand to JSON.stringify (toJSON, class instances, holes)', () => {
    class Block {
      type = 'text';
      text = long;
      toJSON() {
        return { type: 'text', text: 'from toJSON' };
      }
    }
    expectStringifyBytes({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete', content: [new Block(), { type: 'text', text: long }] } } as never);
    expectStringifyBytes({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete', content: [{ type: 'text', text: long, toJSON: () => 'x' }] } } as never);
    // eslint-disable-next-line no-sparse-arrays
    expectStringifyBytes({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete', content: [, { type: 'text', text: long }, undefined] } } as never);
    expectStringifyBytes({
      jsonrpc: '2.0',
      id: 1,
      result: { resultType: 'complete', content: [{ type: 'text', text: long }], toJSON: () => ({ replaced: true }) },
    } as never);
  });
});
