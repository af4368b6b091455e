import * as stdio from '@decorum/stdio';

describe('the entry point of @decorum/stdio', () => {
  test("serveStdio, and LineSplitter for @decorum/client's stdio transport; nothing else", () => {
    expect(Object.keys(stdio).sort()).toEqual(['LineSplitter', 'serveStdio']);
  });
});
