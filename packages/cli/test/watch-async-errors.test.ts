// #48 risk 10: under --watch, an async throw of a reloaded module (after its import) ended the process.
// Decision: reported on stderr and the process keeps serving; any other uncaught exception keeps
// the transports' policy (answer what runs with -32603, exit 1), as test/hardening/process-errors does outside --watch.
import { afterEach, beforeEach, expect, it } from '@jest/globals';
import { until } from '@decorum-internal/test-support';
import { WatchedProject } from './support/watched-project.js';

/** A handler whose stray timer throws after it returned: the request's work, not the module's. */
const strayTool = `  @Tool({ input: null })\n  stray() {\n    setTimeout(() => {\n      throw new Error('a stray throw from a handler');\n    }, 20);\n    return 'returned';\n  }\n`;

let project: WatchedProject;
beforeEach(() => {
  project = new WatchedProject(['alpha']);
});
afterEach(() => project.remove());

it('mcp-serve --watch (stdio): an uncaught exception and an unhandled rejection from a reloaded module are reported and serving goes on; a handler’s stray exception still exits 1', async () => {
  const p = await project.serve();

  project.write(['alpha', 'beta'], {
    members: strayTool,
    topLevel: [
      "setTimeout(() => { throw new Error('late boom from the module'); }, 50);",
      "setTimeout(() => void Promise.reject(new Error('a late rejection from the module')), 50);",
    ].join('\n'),
  });
  await p.waitForStderr(/threw after its import[^\n]*\n/, 30_000);
  expect(p.stderr).toMatch(
    /mcp-serve: \S+server\.ts \(reload 1\) threw after its import \(uncaught exception\); still serving: Error: late boom from the module\n\s+at /,
  );
  expect(await p.waitForStderr('a late rejection from the module')).toMatch(/unhandled promise rejection; the server keeps serving/);
  expect(await project.toolNames(1)).toEqual(['alpha', 'beta', 'stray']);
  expect(await project.callText(2, 'beta')).toBe('beta');

  // The next change still applies.
  project.write(['alpha', 'gamma'], { members: strayTool });
  await until(
    () => p.stderr,
    () => (p.stderr.match(/mcp-serve: reloaded/g) ?? []).length === 2,
    15_000,
  );
  expect(await project.toolNames(3)).toEqual(['alpha', 'gamma', 'stray']);
  expect(p.child.exitCode).toBeNull();

  // Not the module's own work: the transport's policy holds under --watch too.
  expect(await project.callText(4, 'stray')).toBe('returned');
  expect(await p.exit(10_000)).toBe(1);
  expect(p.stderr).toContain('uncaught exception: answering in-flight requests, then exiting with status 1');
}, 90_000);
