import * as cli from '@decorum/cli';

/** The CLI is a command; from code, only its command line is exported (its parts are internals). */
describe('the entry point of @decorum/cli', () => {
  test('buildProgram, nothing else', () => {
    expect(Object.keys(cli).sort()).toEqual(['buildProgram']);
  });
});
