import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '@decorum-internal/test-support';

const run = promisify(execFile);
const cli = JSON.parse(readFileSync(`${ROOT}packages/cli/package.json`, 'utf8')) as { version: string; bin: Record<string, string> };

/** `mcp-serve` is linked by `npm ci` from a committed launcher, so npx never leaves the repository. */
describe('the mcp-serve bin', () => {
  test('npx --no-install mcp-serve --version answers from the workspace', async () => {
    const { stdout } = await run('npx', ['--no-install', 'mcp-serve', '--version'], { cwd: ROOT, encoding: 'utf8' });
    expect(stdout.trim()).toBe(cli.version);
  });

  test('the bin is the committed launcher, not a build output', () => {
    expect(cli.bin['mcp-serve']).toBe('./bin/mcp-serve.js');
    expect(readFileSync(`${ROOT}packages/cli/bin/mcp-serve.js`, 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
  });

  test('before the build, the launcher says to build and exits non-zero', async () => {
    // The launcher alone, in a package folder that has no dist/ yet.
    const scratch = mkdtempSync(join(tmpdir(), 'decorum-bin-'));
    try {
      mkdirSync(join(scratch, 'bin'));
      copyFileSync(`${ROOT}packages/cli/bin/mcp-serve.js`, join(scratch, 'bin/mcp-serve.js'));
      const failure = await run(process.execPath, [join(scratch, 'bin/mcp-serve.js'), '--version'], { encoding: 'utf8' }).catch(
        (error: { code: number; stderr: string; stdout: string }) => error,
      );
      expect(failure).toMatchObject({ code: 1, stdout: '' });
      expect((failure as { stderr: string }).stderr).toBe('mcp-serve: @decorum/cli is not built yet: run npm run build first\n');
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

/** Every workspace package's bin must exist before the build, or `npm ci` does not link it. */
describe('workspace bins', () => {
  const packages = readdirSync(`${ROOT}packages`).filter((name) => existsSync(`${ROOT}packages/${name}/package.json`));
  const bins = packages.flatMap((name) => {
    const manifest = JSON.parse(readFileSync(`${ROOT}packages/${name}/package.json`, 'utf8')) as { bin?: Record<string, string> };
    return Object.entries(manifest.bin ?? {}).map(([bin, file]) => [name, bin, file] as const);
  });

  test('there are bins to check', () => {
    expect(bins.map(([, bin]) => bin)).toContain('mcp-serve');
  });

  test.each(bins)('%s: %s is a committed launcher outside dist/', (name, _bin, file) => {
    expect(file).not.toMatch(/(^|\/)dist\//);
    expect(readFileSync(`${ROOT}packages/${name}/${file}`, 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
  });
});
