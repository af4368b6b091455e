import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { codeBlocks, ROOT } from '@decorum-internal/test-support';

/** The guide whose Layout section maps the repository. */
const GUIDE = 'docs/internals.md';

/** One entry of the Layout: a path at the start of a line, and what its lines say. */
interface Entry {
  path: string;
  /** The `name/` folders its description mentions. */
  folders: string[];
}

function layout(): Entry[] {
  const block = codeBlocks(GUIDE).find((b) => b.info === '' && /^packages\/core\s/.test(b.code));
  if (!block) throw new Error(`${GUIDE} has no Layout block starting with packages/core`);
  const entries: Array<{ path: string; text: string }> = [];
  for (const line of block.code.split('\n').filter(Boolean)) {
    const head = /^(\S+)\s+(.*)$/.exec(line);
    if (head) entries.push({ path: head[1]!.replace(/\/$/, ''), text: head[2]! });
    else entries.at(-1)!.text += ` ${line.trim()}`;
  }
  return entries.map(({ path, text }) => ({ path, folders: [...text.matchAll(/(?<![\w./-])([a-z][\w-]*)\/(?=[\s,);]|$)/g)].map((m) => m[1]!) }));
}

const dirs = (folder: string) =>
  existsSync(join(ROOT, folder))
    ? readdirSync(join(ROOT, folder))
        .filter((name) => statSync(join(ROOT, folder, name)).isDirectory())
        .sort()
    : [];
const entries = layout();

/** The Layout section of docs/internals.md matches the tree, both ways. */
describe('the Layout of docs/internals.md', () => {
  test('every entry exists', () => {
    expect(entries.filter((entry) => !existsSync(join(ROOT, entry.path))).map((entry) => entry.path)).toEqual([]);
  });

  test('every package and example has an entry', () => {
    const listed = new Set(entries.map((entry) => entry.path));
    const missing = [...dirs('packages').map((d) => `packages/${d}`), ...dirs('examples').map((d) => `examples/${d}`)].filter((path) => !listed.has(path));
    expect(missing).toEqual([]);
  });

  test('every top-level folder has an entry (itself, or the entries under it)', () => {
    const listed = entries.map((entry) => entry.path);
    const missing = dirs('.').filter(
      (d) => !d.startsWith('.') && d !== 'node_modules' && d !== 'coverage' && !listed.some((path) => path === d || path.startsWith(`${d}/`)),
    );
    expect(missing).toEqual([]);
  });

  test('every folder under packages/*/src is mentioned in its package entry', () => {
    const missing = dirs('packages').flatMap((pkg) => {
      const entry = entries.find((e) => e.path === `packages/${pkg}`);
      return dirs(`packages/${pkg}/src`)
        .filter((folder) => !entry?.folders.includes(folder))
        .map((folder) => `packages/${pkg}/src/${folder}/`);
    });
    expect(missing).toEqual([]);
  });

  test('every folder an entry mentions exists (under its src/ or beside it)', () => {
    const invented = entries.flatMap((entry) =>
      entry.folders
        .filter((folder) => !existsSync(join(ROOT, entry.path, 'src', folder)) && !existsSync(join(ROOT, entry.path, folder)))
        .map((folder) => `${entry.path}: ${folder}/`),
    );
    expect(invented).toEqual([]);
  });

  test('the parser reads what the Layout says', () => {
    expect(entries.find((entry) => entry.path === 'packages/core')?.folders).toEqual(expect.arrayContaining(['protocol', 'errors', 'live', 'asks', 'logging']));
    expect(entries.find((entry) => entry.path === 'bench')).toBeDefined();
  });
});
