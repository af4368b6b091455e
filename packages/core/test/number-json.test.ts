import { encodeMessage } from '@decorum/core/transport';
import { nodeOutput } from '@decorum-internal/test-support';
import { numberJson } from '../src/wire/number-json.js';

describe('numberJson', () => {
  test('is JSON.stringify of every kind of number', () => {
    const edges = [0, -0, 1, 9, 10, 99, 100, 999, 1000, 9999, 10_000, 10_001, 99_999, 100_000, 1_000_000, 1_234_567, 99_999_999, 100_000_000];
    const others = [-1, -10_000, 0.5, -2.75, 1e21, 1e-7, 2 ** 31, 2 ** 53, Number.MAX_VALUE, Number.MIN_VALUE, NaN, Infinity, -Infinity];
    for (const value of [...edges, ...others]) expect(numberJson(value)).toBe(JSON.stringify(value));
    for (let i = 0; i < 5_000; i++) {
      const value = Math.floor(Math.random() * 10 ** (1 + (i % 9)));
      expect(numberJson(value)).toBe(JSON.stringify(value));
    }
  });

  test('writes an answer’s id as JSON.stringify does', () => {
    for (const id of [0, 7, 10_000, 12_345_678, 123_456_789, -3, 1.5]) {
      const message = { jsonrpc: '2.0' as const, id, result: { resultType: 'complete', content: [] } };
      expect(encodeMessage(message as never)).toBe(JSON.stringify(message));
    }
  });
});

/** Bytes the young collections kept (copied or promoted) while the probe encoded its measured answers. */
function keptByYoungCollections(viaString: boolean): number {
  const out = nodeOutput(['--trace-gc-nvp', 'packages/core/test/fixtures/id-string-probe.mjs', ...(viaString ? ['string'] : [])]);
  expect(out).toContain('MARK');
  expect(out).toContain('ENCODED');
  const measured = out.slice(out.indexOf('MARK'));
  let kept = 0;
  for (const line of measured.split('\n')) if (/ gc=s /.test(line)) kept += Number(/ new_space_survived=(\d+)/.exec(line)?.[1] ?? NaN);
  expect(Number.isFinite(kept)).toBe(true);
  return kept;
}

// See number-json.ts: a string made by String(id) is kept in V8's number-to-string cache, in the
// old generation, so young collections cannot free it: with ids that count up, each answer left one.
describe("answers' ids leave nothing for the young collections to keep", () => {
  test('String(id) leaves its strings behind: the hazard is real on this Node', () => {
    expect(keptByYoungCollections(true)).toBeGreaterThan(1_000_000);
  });

  test('the writer leaves ~nothing of 300,000 answers with new ids', () => {
    // ~40 KB here (what is alive at each collection); String(id) for each id kept ~5.8 MB.
    expect(keptByYoungCollections(false)).toBeLessThan(300_000);
  });
});
