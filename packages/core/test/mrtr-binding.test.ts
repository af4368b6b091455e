import { randomBytes } from 'node:crypto';
import { request } from '@decorum-internal/test-support';
import { canonicalJson, digest } from '../src/asks/mrtr/binding.js';
import { harness } from './support/engine-harness.js';
import { MrtrServer, runs } from './support/mrtr-fixture.js';

const ELICIT = { capabilities: { elicitation: {} } };
const yes = { confirm: { action: 'accept', content: { ok: true } } };

describe('MRTR bindings: RFC 8785 canonical JSON of the arguments', () => {
  test('equal values have one spelling: keys sorted by UTF-16 code units at every level, numbers as ECMAScript writes them', () => {
    expect(canonicalJson({ b: [1, { d: 1e21, c: 0.1 }], a: 'é', '\u{1F600}': 1, '\uFFFD': 2 })).toBe(
      '{"a":"é","b":[1,{"c":0.1,"d":1e+21}],"\u{1F600}":1,"\uFFFD":2}',
    );
    expect(canonicalJson({ skipped: undefined, kept: [undefined] })).toBe('{"kept":[null]}');
    expect(canonicalJson(undefined)).toBe('null');
  });

  test('a string with a lone surrogate (a JSON escape such as "\\ud800") still has one spelling, apart from every other value', () => {
    const lone = { path: '\uD800' };
    expect(digest(lone)).toBe(digest({ path: '\uD800' }));
    for (const other of [
      { path: '\uFFFD' },
      { path: '\uDC00' },
      { path: '\\ud800' },
      { path: JSON.stringify('\uD800') },
      { [JSON.stringify('path')]: JSON.stringify('\uD800') },
    ])
      expect(digest(other)).not.toBe(digest(lone));
  });

  test('a tool called with such an argument asks and is answered across rounds', async () => {
    const { call } = harness([MrtrServer], { mrtr: { keys: [randomBytes(32).toString('base64')] } });
    const args = { name: 'delete_file', arguments: { path: '/tmp/\uD800' } };
    const first = await call(request(1, 'tools/call', args, ELICIT));
    expect(first?.result.resultType).toBe('input_required');
    runs.deleted.length = 0;
    const retry = await call(request(2, 'tools/call', { ...args, requestState: first?.result.requestState, inputResponses: yes }, ELICIT));
    expect(retry?.result.content[0].text).toBe('deleted /tmp/\uD800');
    const other = await call(
      request(
        3,
        'tools/call',
        { name: 'delete_file', arguments: { path: '/tmp/\uFFFD' }, requestState: first?.result.requestState, inputResponses: yes },
        ELICIT,
      ),
    );
    expect(other?.error).toMatchObject({ code: -32602, message: expect.stringContaining('different arguments') });
  });
});
