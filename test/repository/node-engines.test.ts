import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from '@decorum-internal/test-support';

// The README promises Node >= 20.19 (the root package.json's engines): every package the lock file
// installs must accept the oldest Node of that range, or `npm ci` prints EBADENGINE and the promise
// is untrue. The exceptions below are the known ones, each with why it is acceptable.
const semver = createRequire(import.meta.url)('semver') as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
};

/** Installed packages whose `engines.node` excludes Node 20.19, by lock-file path, and why that is acceptable. */
const ALLOWED: Record<string, string> = {
  // Dev only: test/interop/inspector-cli.test.ts runs its CLI on the CI's Node 20, where it passes.
  'node_modules/@modelcontextprotocol/inspector': 'the MCP Inspector (>= 22.19): a dev tool whose CLI we test on Node 20',
  'node_modules/@modelcontextprotocol/inspector/node_modules/commander': "the Inspector's own commander",
  'node_modules/@modelcontextprotocol/inspector/node_modules/undici': "the Inspector's own undici",
  // Dev only: scripts/conformance.mjs runs the conformance suite with a Node >= 22 it downloads.
  'node_modules/@octokit/request/node_modules/content-type': "the conformance suite's GitHub client, run on Node 22",
  // Fastify's light-my-request (app.inject) requires it; ESM only, which Node loads by require() from 20.19 on.
  'node_modules/cookie': "cookie 2 (>= 22) under fastify's light-my-request: loads on Node >= 20.19 through require(esm)",
};

const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } }>;
};
const oldest = semver.minVersion(root.engines.node)!.version;

/** The lock file's packages whose engines.node does not accept the oldest Node the root declares. */
const excluding = Object.entries(lock.packages)
  .filter(([path, entry]) => path !== '' && typeof entry.engines?.node === 'string' && !semver.satisfies(oldest, entry.engines.node))
  .map(([path, entry]) => ({ path, version: entry.version, node: entry.engines!.node }));

describe(`every installed package runs on the oldest Node the root declares (${root.engines.node})`, () => {
  test('the declared range has an oldest version, and the lock file records engines', () => {
    expect(oldest).toMatch(/^\d+\.\d+\.\d+$/);
    expect(Object.values(lock.packages).filter((entry) => entry.engines?.node).length).toBeGreaterThan(100);
  });

  test('none excludes it but the commented exceptions', () => {
    expect(excluding.filter(({ path }) => !(path in ALLOWED))).toEqual([]);
  });

  test('each exception still excludes it (a stale one is removed)', () => {
    expect(Object.keys(ALLOWED).filter((path) => !excluding.some((found) => found.path === path))).toEqual([]);
  });
});
