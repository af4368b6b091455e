import { strictUtf8 } from '@decorum/core/transport';

describe('strictUtf8: the text of valid UTF-8 bytes, undefined for any other bytes', () => {
  test('ASCII and multi-byte characters decode as they are', () => {
    for (const text of ['{"a":1}', '{"a":"é€😀"}', '']) expect(strictUtf8(Buffer.from(text))).toBe(text);
  });

  test('a U+FFFD that was sent (EF BF BD) is valid and kept', () => {
    expect(strictUtf8(Buffer.from('{"a":"\uFFFD"}'))).toBe('{"a":"\uFFFD"}');
  });

  test.each([
    ['a byte never valid in UTF-8', [0xff]],
    ['a lone continuation byte', [0x80]],
    ['a truncated sequence', [0xe2, 0x82]],
    ['an overlong encoding of "/"', [0xc0, 0xaf]],
    ['a UTF-16 surrogate encoded as UTF-8', [0xed, 0xa0, 0x80]],
  ])('%s: undefined', (_name, bad) => {
    expect(strictUtf8(Buffer.concat([Buffer.from('{"a":"'), Buffer.from(bad), Buffer.from('"}')]))).toBeUndefined();
  });

  test('only the bytes in [start, end) count', () => {
    const bytes = Buffer.concat([Buffer.from([0xff]), Buffer.from('{"a":"é"}'), Buffer.from([0xff])]);
    expect(strictUtf8(bytes)).toBeUndefined();
    expect(strictUtf8(bytes, 1, bytes.length - 1)).toBe('{"a":"é"}');
    expect(strictUtf8(bytes, 0, bytes.length - 1)).toBeUndefined();
  });
});
