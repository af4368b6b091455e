import { UnsupportedProtocolVersionError } from '@decorum/core';
import { negotiate } from '../src/eras/negotiate.js';
import type { DiscoverResult, ServerView } from '../src/results.js';

const discovered = { supportedVersions: ['2026-07-28'], capabilities: {}, serverInfo: { name: 's', version: '1' } } as unknown as DiscoverResult;

describe('era negotiation', () => {
  test('a -32022 that lists the version sent is answered by asking again, once (SEP-2575)', async () => {
    let calls = 0;
    const view = await negotiate('modern', {
      discover: async () => {
        if (calls++ === 0) throw new UnsupportedProtocolVersionError('Unsupported protocol version', ['2026-07-28'], '2026-07-28');
        return discovered;
      },
      initialize: async () => ({}) as ServerView,
    });
    expect(calls).toBe(2);
    expect(view.era).toBe('modern');
  });

  test('a server that keeps refusing with -32022 is not asked a third time', async () => {
    let calls = 0;
    const refuse = async (): Promise<DiscoverResult> => {
      calls++;
      throw new UnsupportedProtocolVersionError('Unsupported protocol version', ['2026-07-28'], '2026-07-28');
    };
    await expect(negotiate('modern', { discover: refuse, initialize: async () => ({}) as ServerView })).rejects.toBeInstanceOf(UnsupportedProtocolVersionError);
    expect(calls).toBe(2);
  });
});
