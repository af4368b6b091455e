import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { codeBlocks, ROOT } from '@decorum-internal/test-support';

/** The README's "new project" commands, from a clone: the lines of the ```sh block that packs the packages. */
const block = codeBlocks('README.md').find((b) => b.info === 'sh' && b.code.includes('npm pack'));
const commands = block?.code.split('\n').filter(Boolean) ?? [];
const TARBALLS = '/tmp/decorum-tarballs';

/** Runs one README line in a shell at the repository root, the README's tarball folder replaced by `dir`. */
async function run(line: string, from: string, to: string): Promise<string[]> {
  const { stdout, stderr } = await promisify(execFile)('sh', ['-c', line.replaceAll(from, to)], { cwd: ROOT });
  return `${stdout}${stderr}`.split('\n').filter(Boolean);
}

describe("the README's new project from a clone", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'decorum-readme-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('packs into the tarball folder the scaffolder reads, quietly: a line per package, not the file lists', async () => {
    expect(commands).toEqual(
      expect.arrayContaining([expect.stringMatching(`^mkdir -p ${TARBALLS}$`), expect.stringMatching(`--pack-destination ${TARBALLS}$`)]),
    );
    const pack = commands.find((line) => line.startsWith('npm pack'))!;
    const output = await run(pack, TARBALLS, dir);
    expect(readdirSync(dir).sort()).toEqual([
      'decorum-cli-0.1.0.tgz',
      'decorum-client-0.1.0.tgz',
      'decorum-core-0.1.0.tgz',
      'decorum-fastify-0.1.0.tgz',
      'decorum-stdio-0.1.0.tgz',
    ]);
    expect(output).toEqual(readdirSync(dir).map(() => expect.stringMatching(/^decorum-[a-z]+-0\.1\.0\.tgz$/)));
  }, 120_000);

  test('create-decorum writes a project from those tarballs', async () => {
    const create = commands.find((line) => line.startsWith('npx create-decorum'))!;
    expect(create).toContain(`--decorum-from ${TARBALLS}`);
    await run(create.replace('/tmp/my-server', join(dir, 'my-server')), TARBALLS, dir);
    for (const file of ['package.json', 'src/server.ts', 'test/server.test.mjs']) expect(existsSync(join(dir, 'my-server', file))).toBe(true);
  }, 60_000);
});
