import { isUnicodeNeutralPattern } from '../src/schema/dto/unicode-neutral-pattern.js';

describe('isUnicodeNeutralPattern', () => {
  // Strings where code units and code points part ways: astral characters, lone surrogates, variation selectors.
  const strings = ['', 'a', 'ab', '12345', '😀', 'a😀', '😀😀', '\uD83D', '\uDE00', 'a\uFE0F', 'K', '\u212A', ' ', '\u00A0', 'é', 'a-b', 'A_1'];

  test.each(['^\\d{5}$', '^[a-z]+(-[a-z]+)*$', '^\\w+$', '\\bab', '^(a|b)\\1$', '^[\\x00-\\x7f]*$', '^\\s?$', '(?<=a)b', '^(?:ab){1,2}$'])(
    '%s accepts nothing more with the u flag',
    (source) => {
      expect(isUnicodeNeutralPattern(source)).toBe(true);
      for (const s of strings) if (new RegExp(source, 'u').test(s)) expect([source, s, new RegExp(source).test(s)]).toEqual([source, s, true]);
    },
  );

  test.each([
    ['^.$', '😀'],
    ['^[^a]$', '😀'],
    ['^\\S$', '😀'],
    ['^\\u{1F600}$', '😀'],
    ['^\\p{L}$', 'é'],
  ])('%s is refused: %s is accepted only with the u flag', (source, s) => {
    expect(new RegExp(source, 'u').test(s) && !new RegExp(source).test(s)).toBe(true);
    expect(isUnicodeNeutralPattern(source)).toBe(false);
  });

  test.each(['^é$', '^a{', '\\-', '^(?i:k)$'])('%s is refused: not ASCII, not valid with u, or inline modifiers', (source) => {
    expect(isUnicodeNeutralPattern(source)).toBe(false);
  });
});
