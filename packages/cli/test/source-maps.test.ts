import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { request, ROOT, StdioProcess } from '@decorum-internal/test-support';

const FIXTURE = 'packages/cli/test/fixtures/throwing-tool.ts';

/** `mcp-serve file.ts` compiles with swc's inline source maps and turns Node's source-map support on. */
describe('mcp-serve MODULE.ts: stack traces name the .ts source', () => {
  const server = StdioProcess.serve(FIXTURE);
  afterAll(() => server.kill());

  it("a tool's error is logged with the .ts file and the line of the throw", async () => {
    const line =
      readFileSync(join(ROOT, FIXTURE), 'utf8')
        .split('\n')
        .findIndex((text) => text.includes("throw new Error('the tool failed')")) + 1;
    const call = await server.request(request(1, 'tools/call', { name: 'fail', arguments: {} }));
    expect(call.result.isError).toBe(true);
    const logged = await server.waitForStderr('the tool failed', 10_000);
    expect(logged).toContain(`${join(ROOT, FIXTURE)}:${line}:`);
  });
});
