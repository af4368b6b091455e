import { LineSplitter } from '@decorum/core/transport';

/** Feeds `chunks` to a splitter and returns what came out: lines, and `OVERSIZED` where one was refused. */
function split(chunks: Array<string | Buffer>, maxLineBytes = 1024, end = false): string[] {
  const out: string[] = [];
  const splitter = new LineSplitter(
    maxLineBytes,
    (line) => out.push(line),
    () => out.push('OVERSIZED'),
  );
  for (const chunk of chunks) splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  if (end) splitter.end();
  return out;
}

const TEXT = '{"a":"é€😀"}\r\n\n  \n{"b":2}\n{"c":"naïve"}\n';
const LINES = ['{"a":"é€😀"}', '{"b":2}', '{"c":"naïve"}'];

describe('LineSplitter', () => {
  test('a chunk of complete lines: each line once, in order; CRLF and blank lines handled', () => {
    expect(split([TEXT])).toEqual(LINES);
  });

  test('the same lines split across two and three chunks at every byte position (multi-byte characters too)', () => {
    const bytes = Buffer.from(TEXT);
    for (let i = 0; i <= bytes.length; i++) {
      expect({ i, lines: split([bytes.subarray(0, i), bytes.subarray(i)]) }).toEqual({ i, lines: LINES });
      for (let j = i; j <= bytes.length; j++) {
        expect({ i, j, lines: split([bytes.subarray(0, i), bytes.subarray(i, j), bytes.subarray(j)]) }).toEqual({ i, j, lines: LINES });
      }
    }
  });

  test('a line that is not UTF-8 is refused alone; the lines around it, and a U+FFFD that was sent, come through', () => {
    const lines: string[] = [];
    let invalid = 0;
    const splitter = new LineSplitter(
      1024,
      (line) => lines.push(line),
      () => lines.push('OVERSIZED'),
      () => invalid++,
    );
    const sentReplacement = '{"c":"\uFFFD"}';
    splitter.push(Buffer.concat([Buffer.from('{"a":1}\n{"b":"'), Buffer.from([0xff]), Buffer.from(`"}\n${sentReplacement}\n`)]));
    expect({ lines, invalid }).toEqual({ lines: ['{"a":1}', sentReplacement], invalid: 1 });
  });

  test('byte by byte', () => {
    expect(split([...Buffer.from(TEXT)].map((byte) => Buffer.from([byte])))).toEqual(LINES);
  });

  test('the limit counts bytes, not characters: a line at the limit passes, one byte more is refused', () => {
    const atLimit = 'é'.repeat(5); // 10 bytes
    const over = `${atLimit}x`; // 11 bytes, 6 characters
    expect(split([`${atLimit}\n${over}\nok\n`], 10)).toEqual([atLimit, 'OVERSIZED', 'ok']);
    expect(split([`${over}\n`], 10)).toEqual(['OVERSIZED']);
    expect(split([`${atLimit}\n`], 10)).toEqual([atLimit]);
  });

  test('complete lines that together exceed the limit are each served', () => {
    const lines = Array.from({ length: 20 }, (_, i) => `{"n":${i}}`);
    expect(split([`${lines.join('\n')}\n`], 16)).toEqual(lines);
  });

  test('an oversized line among others in one chunk is refused once; the lines around it are served', () => {
    expect(split([`{"before":1}\n${'x'.repeat(5000)}\n{"after":2}\n`], 1024)).toEqual(['{"before":1}', 'OVERSIZED', '{"after":2}']);
  });

  test('an oversized line streamed over many chunks is refused once, and the next line is served', () => {
    const chunks = ['{"before":1}\n{"big":"', ...Array.from({ length: 50 }, () => 'y'.repeat(100)), '"}\n{"after":2}\n'];
    expect(split(chunks, 1024)).toEqual(['{"before":1}', 'OVERSIZED', '{"after":2}']);
  });

  test('a line that outgrows the limit only in its last chunk is refused', () => {
    expect(split(['x'.repeat(600), `${'x'.repeat(600)}\n{"after":2}\n`], 1024)).toEqual(['OVERSIZED', '{"after":2}']);
  });

  test('at the end of the stream a last line without a newline still counts', () => {
    expect(split(['{"a":1}\n{"b"', ':2}'], 1024, true)).toEqual(['{"a":1}', '{"b":2}']);
    expect(split(['{"a":1}\n'], 1024, true)).toEqual(['{"a":1}']);
  });
  test("screened: a chunk's lines are screened together for `__` / `\\u`; a line put together from several chunks is not screened", () => {
    const heard: Array<[string, boolean]> = [];
    const splitter = new LineSplitter(
      1024,
      (line, screened) => heard.push([line, screened]),
      () => {},
    );
    splitter.push(Buffer.from('{"a":1}\n{"b":2}\n'));
    splitter.push(Buffer.from('{"c":3}\n{"__proto__":{}}\n{"d":"\\u0041"}\n{"e"'));
    splitter.push(Buffer.from(':5}\n'));
    expect(heard).toEqual([
      ['{"a":1}', true],
      ['{"b":2}', true],
      ['{"c":3}', false],
      ['{"__proto__":{}}', false],
      ['{"d":"\\u0041"}', false],
      ['{"e":5}', false],
    ]);
  });
});
