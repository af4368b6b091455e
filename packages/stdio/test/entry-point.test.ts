import * as stdio from '@decorum/stdio';

describe('the entry point of @decorum/stdio', () => {
  test('serveStdio, nothing else (LineSplitter, which the client shares, is in @decorum/core/transport)', () => {
    expect(Object.keys(stdio).sort()).toEqual(['serveStdio']);
  });
});
