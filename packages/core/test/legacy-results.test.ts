import { legacyResult } from '../src/legacy/legacy-results.js';
import { META } from '../src/protocol/meta-keys.js';
import type { Result } from '../src/protocol/types.js';

describe('legacy results leave out what no legacy revision defines', () => {
  test('the modern keys go; everything else stays, and the engine’s object is not changed', () => {
    const modern: Result = { resultType: 'complete', ttlMs: 1000, cacheScope: 'public', content: [{ type: 'text', text: 'hi' }], isError: false };
    expect(legacyResult('tools/call', modern, '2025-11-25')).toEqual({ content: [{ type: 'text', text: 'hi' }], isError: false });
    expect(modern.resultType).toBe('complete');
  });

  test('_meta loses serverInfo and keeps the rest', () => {
    const modern: Result = { resultType: 'complete', content: [], _meta: { [META.serverInfo]: { name: 's', version: '1' }, 'example.com/trace': 'x' } };
    expect(legacyResult('tools/call', modern, '2025-11-25')).toEqual({ content: [], _meta: { 'example.com/trace': 'x' } });
  });

  test('a _meta with nothing else left goes, also one that was empty to begin with', () => {
    const onlyServerInfo: Result = { resultType: 'complete', content: [], _meta: { [META.serverInfo]: { name: 's', version: '1' } } };
    const empty: Result = { resultType: 'complete', content: [], _meta: {} };
    expect(legacyResult('tools/call', onlyServerInfo, '2025-11-25')).toEqual({ content: [] });
    expect(legacyResult('tools/call', empty, '2025-11-25')).toEqual({ content: [] });
  });
});
