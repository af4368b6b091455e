/**
 * A generated project declares every package its own files import (no package that only happens
 * to be installed as a dependency of @decorum/core), and the decorator libraries whose metadata
 * @decorum/core reads from the project's classes, at core's ranges so npm installs one copy.
 * Fast: it scaffolds without installing.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import ts from 'typescript';
import { ROOT } from '@decorum-internal/test-support';
import { scaffold } from '../src/scaffold.js';

/** The package an import specifier names (`@scope/name` or `name`), or undefined for a file or a Node builtin. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return entry === 'node_modules' ? [] : sourceFiles(path);
    return /\.(?:ts|mts|cts|js|mjs|cjs)$/.test(entry) ? [path] : [];
  });
}

describe('a generated project’s package.json', () => {
  let dir: string;
  let manifest: { dependencies: Record<string, string>; devDependencies: Record<string, string> };
  let files: string[];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'decorum-template-'));
    scaffold({ directory: join(dir, 'my-server') });
    manifest = JSON.parse(readFileSync(join(dir, 'my-server/package.json'), 'utf8'));
    files = sourceFiles(join(dir, 'my-server'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lists every package the generated sources and tests import', () => {
    const declared = new Set([...Object.keys(manifest.dependencies), ...Object.keys(manifest.devDependencies)]);
    const imported = new Set(
      files.flatMap((file) =>
        ts
          .preProcessFile(readFileSync(file, 'utf8'), true, true)
          .importedFiles.map((ref) => packageOf(ref.fileName))
          .filter((name): name is string => name !== undefined),
      ),
    );
    expect(files.map((f) => f.slice(dir.length + 1))).toEqual(expect.arrayContaining(['my-server/src/server.ts', 'my-server/test/server.test.mjs']));
    expect(imported).toContain('reflect-metadata');
    expect([...imported].filter((name) => !declared.has(name))).toEqual([]);
  });

  it('depends on reflect-metadata, class-validator and class-transformer at the ranges @decorum/core uses', () => {
    const core = JSON.parse(readFileSync(join(ROOT, 'packages/core/package.json'), 'utf8')) as { dependencies: Record<string, string> };
    // Their metadata (design types, validation and transformation decorators) is read by core from the project's classes.
    for (const name of ['reflect-metadata', 'class-validator', 'class-transformer']) {
      expect([name, manifest.dependencies[name]]).toEqual([name, core.dependencies[name]]);
    }
  });
});
