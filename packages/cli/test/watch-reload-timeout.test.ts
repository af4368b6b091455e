// #48 bug 7: a reload whose top-level await never settled held every later reload back, silently.
import { afterEach, beforeEach, expect, it } from '@jest/globals';
import { DecorumStartupError, StartupErrorCode } from '@decorum/core';
import { watchModule } from '../src/watch.js';
import { WatchedProject } from './support/watched-project.js';

let project: WatchedProject;
beforeEach(() => {
  project = new WatchedProject(['alpha']);
});
afterEach(() => project.remove());

it('mcp-serve --watch (stdio): a reload that never settles times out with a message, the last good version serves, the next change applies', async () => {
  const p = await project.serve();
  expect(await project.toolNames(1)).toEqual(['alpha']);

  project.write(['alpha', 'beta'], { topLevel: 'await new Promise(() => {});' });
  // The default reloadTimeoutMs (10 s), then one line that says why and what happens next.
  await p.waitForStderr('reload of', 30_000);
  expect(p.stderr).toMatch(
    /mcp-serve: reload of \S+server\.ts failed; still serving the last good version: its import did not finish within 10000 ms \(a top-level await that never settles\?\); the next change reloads again\n/,
  );
  expect(await project.toolNames(2)).toEqual(['alpha']);

  project.write(['alpha', 'gamma']);
  await p.waitForStderr('mcp-serve: reloaded', 15_000);
  expect(await project.toolNames(3)).toEqual(['alpha', 'gamma']);
  expect(await project.callText(4, 'gamma')).toBe('gamma');
  expect(p.child.exitCode).toBeNull();
}, 90_000);

it('watchModule refuses a reloadTimeoutMs that is not a positive integer, before watching', () => {
  const attempt = () => watchModule(project.server, [], { reloadTimeoutMs: 0 });
  expect(attempt).toThrow(DecorumStartupError);
  expect(attempt).toThrow(
    expect.objectContaining({
      code: StartupErrorCode.INVALID_NUMBER,
      message: 'DECORUM_ERR_INVALID_NUMBER: watchModule: reloadTimeoutMs must be a positive integer (got 0)',
    }),
  );
});
