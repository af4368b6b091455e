import { ParseError } from '@decorum/core';
import { mayHoldProtoKey, parseJson } from '@decorum/core/transport';

/** Every way a key can spell `__proto__`: as it is, and with JSON's `\u` escapes for any of its letters. */
const PROTO_SPELLINGS = [
  '__proto__',
  '\\u005f_proto__',
  '_\\u005Fproto__',
  '__pr\\u006fto__',
  '__proto\\u005f_',
  '\\u005f\\u005f\\u0070\\u0072\\u006f\\u0074\\u006f\\u005f\\u005f',
];

describe('parseJson: prototype poisoning is refused in every spelling, and the common path is plain JSON', () => {
  test.each(PROTO_SPELLINGS)('a "%s" key, at the top or nested, is a -32700', (key) => {
    for (const text of [`{"jsonrpc":"2.0","id":1,"method":"x","${key}":{"a":1}}`, `{"jsonrpc":"2.0","id":1,"method":"x","params":{"v":[{"${key}":{}}]}}`]) {
      expect(() => parseJson(text)).toThrow(ParseError);
      expect(() => parseJson(text)).toThrow(/"__proto__" key/);
    }
  });

  test('all 512 spellings (each character as itself or escaped, hex digits in either case) are refused', () => {
    const key = '__proto__';
    for (let mask = 0; mask < 2 ** key.length; mask++) {
      const spelled = [...key]
        .map((char, i) => {
          if ((mask & (1 << i)) === 0) return char;
          const hex = char.charCodeAt(0).toString(16).padStart(4, '0');
          return `\\u${i % 2 === 0 ? hex : hex.toUpperCase()}`;
        })
        .join('');
      expect(() => parseJson(`{"jsonrpc":"2.0","id":1,"method":"x","params":{"${spelled}":{}}}`)).toThrow(/"__proto__" key/);
    }
  });

  test('"__proto__" as a value, or escapes that spell other keys, parse as JSON does', () => {
    for (const text of [
      '{"id":1,"method":"x","params":{"text":"__proto__"}}',
      '{"id":1,"params":{"caf\\u00e9":"\\u00e9t\\u00e9"}}',
      '{"constructor":{"prototype":{}}}',
    ]) {
      expect(parseJson(text)).toEqual(JSON.parse(text));
    }
  });

  test('a byte-order mark is skipped (as before); malformed JSON is a -32700', () => {
    expect(parseJson('\ufeff{"jsonrpc":"2.0","id":1,"method":"ping"}')).toEqual({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(() => parseJson('{"jsonrpc":')).toThrow(/not valid JSON/);
  });

  test('screened (a transport found no `__` nor `\\u` in the text holding this one): plain JSON, but a byte-order mark is still skipped', () => {
    expect(parseJson('{"jsonrpc":"2.0","id":1,"method":"ping"}', true)).toEqual({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(parseJson('\ufeff{"jsonrpc":"2.0","id":1,"method":"ping"}', true)).toEqual({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(() => parseJson('{"jsonrpc":', true)).toThrow(/not valid JSON/);
  });

  test('mayHoldProtoKey: true for any text that could spell the key, false for one without `__` and `\\u`', () => {
    for (const key of PROTO_SPELLINGS) expect(mayHoldProtoKey(`{"a":1}\n{"params":{"${key}":{}}}`)).toBe(true);
    expect(mayHoldProtoKey('{"name":"add_typebox","_meta":{"a":"b\\n"}}')).toBe(false);
  });

  test('an integer id beyond 2^53 keeps its exact digits on both paths', () => {
    expect(parseJson('{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}')).toMatchObject({ id: 9007199254740993n });
    expect(parseJson('{"jsonrpc":"2.0","id":9007199254740993,"method":"ping","params":{"k":"\\u0041"}}')).toMatchObject({ id: 9007199254740993n });
  });
});
