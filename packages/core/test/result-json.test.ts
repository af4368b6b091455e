import { encodeMessage, type EngineResponse } from '@decorum/core/transport';
import { infoOnlyMeta } from '../src/wire/result-json.js';

/** A result response is written member by member (result-json.ts): its text must be exactly JSON.stringify's. */
const expectStringify = (message: EngineResponse) => {
  const json = JSON.stringify(message);
  expect(encodeMessage(message)).toBe(json);
  expect(Buffer.from(encodeMessage(message, { body: true })).equals(Buffer.from(json, 'utf8'))).toBe(true);
};
const respond = (result: unknown, id: string | number = 1): EngineResponse => ({ jsonrpc: '2.0', id, result }) as never;
const serverInfo = Object.freeze({ name: 'weather', version: '1.2.0' });
const engineMeta = () => ({ 'io.modelcontextprotocol/serverInfo': serverInfo });

describe('encodeMessage of a result response, written member by member', () => {
  it('writes a tools/call result with the engine’s serverInfo _meta, again and again', () => {
    for (const text of ['42', 'héllo ☂ 🌧', 'a"b\\c\n\u2028']) {
      expectStringify(respond({ resultType: 'complete', content: [{ type: 'text', text }], isError: false, _meta: engineMeta() }));
    }
    expectStringify(
      respond(
        { resultType: 'complete', content: [], _meta: { 'io.modelcontextprotocol/serverInfo': Object.freeze({ name: 'other', version: '9' }) } },
        'id-"2"',
      ),
    );
  });

  it('writes the shared serverInfo-only _meta the engine gives a result without one (frozen, its JSON made once)', () => {
    const shared = infoOnlyMeta(serverInfo);
    expect(Object.isFrozen(shared)).toBe(true);
    expect(shared).toEqual(engineMeta());
    for (const id of [1, 2]) expectStringify(respond({ resultType: 'complete', content: [{ type: 'text', text: '42' }], _meta: shared }, id));
  });

  it('writes a _meta that holds more than the server’s info, or an info that may still change, as it is now', () => {
    expectStringify(respond({ content: [], _meta: { ...engineMeta(), 'dev.decorum/validation': { issues: [{ path: 'a', message: 'no' }] } } }));
    const info = { name: 'mutable', version: '1' };
    const meta = { 'io.modelcontextprotocol/serverInfo': info };
    expectStringify(respond({ content: [], _meta: meta }));
    info.version = '2';
    expectStringify(respond({ content: [], _meta: meta }));
    expect(encodeMessage(respond({ content: [], _meta: meta }))).toContain('"version":"2"');
  });

  it('quotes keys and values that need escaping, and leaves out what JSON leaves out', () => {
    expectStringify(
      respond({
        'a"b': 1,
        '\u2028': 'x',
        n: -0.5,
        nan: Number.NaN,
        none: null,
        yes: true,
        no: false,
        skipped: undefined,
        fn: () => 1,
        sym: Symbol('s'),
        nested: { deep: [1, 'two', { three: 3, gone: undefined }], list: [undefined, () => 1] },
        content: [{ type: 'text', text: 'a', skipped: undefined, 'q"': 'v' }, 'a string', 7, null, undefined, () => 1],
      }),
    );
    // eslint-disable-next-line no-sparse-arrays
    expectStringify(respond({ content: [, { type: 'text', text: 'after a hole' }] }));
    expectStringify(respond({ content: 'not an array' }));
  });

  it('writes numbers and strings, ids included, exactly as JSON.stringify (its call is skipped for the common ones)', () => {
    const strings = ['', 'plain', 'a"b', 'back\\slash', '\u0000', '\u001f', '\u007f', 'é ☂', '🌧', '\ud800', 'x\udfff', '\u2028\u2029', '</script>'];
    for (const length of [63, 64, 65]) strings.push('a'.repeat(length), `${'a'.repeat(length - 1)}"`, `${'a'.repeat(length - 1)}\ud83c`);
    const numbers = [0, -0, 1.5, -42, 1e21, 1e-7, Number.MAX_SAFE_INTEGER, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
    for (const value of [...strings, ...numbers]) {
      expectStringify(respond({ content: [{ type: 'text', text: value }], value, structuredContent: { value } }));
      expectStringify(respond({ content: [] }, value));
    }
  });

  it('hands toJSON the key JSON.stringify would (the member name, the block index)', () => {
    const keyed = { toJSON: (key: string) => `key=${key}` };
    expectStringify(respond({ content: [], when: keyed }));
    expectStringify(respond({ content: [keyed, { type: 'text', text: 'b' }] }));
    expectStringify(respond({ content: [{ type: 'text', text: 'x', at: keyed }] }));
    expectStringify(respond({ content: [], _meta: keyed }));
    expectStringify(respond({ content: [], structuredContent: { at: new Date(0), keyed } }));
    expect(encodeMessage(respond({ content: [], when: keyed }))).toContain('"when":"key=when"');
  });

  it('writes class instances and null-prototype objects as JSON.stringify does', () => {
    class Block {
      type = 'text';
      text = 'from a class';
    }
    const bare = Object.assign(Object.create(null) as object, { type: 'text', text: 'no prototype' });
    expectStringify(respond({ content: [new Block(), bare] }));
    expectStringify(respond(Object.assign(Object.create(null) as object, { content: [bare], isError: false })));
    class Result {
      content = [{ type: 'text', text: 'x' }];
    }
    expectStringify(respond(new Result()));
  });

  it('writes only own members, even when Object.prototype has an enumerable one', () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto.polluted = 'yes';
    try {
      expectStringify(respond({ resultType: 'complete', content: [{ type: 'text', text: 'x' }] }));
      expect(encodeMessage(respond({ content: [{ type: 'text', text: 'x' }] }))).not.toContain('polluted');
    } finally {
      delete proto.polluted;
    }
  });

  it('keeps exact ids and still refuses what JSON cannot hold', () => {
    expect(encodeMessage({ jsonrpc: '2.0', id: 9007199254740993n, result: { content: [] } } as never)).toBe(
      '{"jsonrpc":"2.0","id":9007199254740993,"result":{"content":[]}}',
    );
    expect(() => encodeMessage(respond({ content: [], big: 1n }))).toThrow(TypeError);
    const cycle: Record<string, unknown> = { content: [] };
    cycle.self = cycle;
    expect(() => encodeMessage(respond(cycle))).toThrow(TypeError);
  });

  it('writes results with many distinct keys (more than it keeps quoted)', () => {
    const result: Record<string, unknown> = { content: [] };
    for (let i = 0; i < 600; i++) result[`key_${i}_"`] = i;
    expectStringify(respond(result));
    expectStringify(respond(result));
  });
});
