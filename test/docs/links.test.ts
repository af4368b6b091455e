import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { documentationFiles, ROOT } from '@decorum-internal/test-support';

/** The README and every guide under docs/: the documents a reader navigates between. */
const DOCUMENTS = documentationFiles().filter((file) => file === 'README.md' || file.startsWith('docs/'));

/** The lines of a markdown text with fenced blocks and code spans blanked: brackets in code are not links. */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line.replace(/(`+)[\s\S]*?\1/g, '');
  });
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, each space a hyphen. */
function slug(heading: string): string {
  const text = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a markdown text's headings; a repeated heading gets -1, -2, … as on GitHub. */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Where the relative links of `text` (the content of the repository file `file`) lead nowhere. */
function brokenLinks(file: string, text: string): string[] {
  const broken: string[] = [];
  proseLines(text).forEach((line, index) => {
    for (const [, target] of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target!)) continue; // https:, mailto:: not a file of the repository
      const [path, anchor] = target!.split('#') as [string, string | undefined];
      const resolved = path === '' ? file : join(dirname(file), decodeURIComponent(path));
      const where = `${file}:${index + 1}: (${target})`;
      if (path !== '' && !existsSync(join(ROOT, resolved))) broken.push(`${where} ${resolved} does not exist`);
      else if (
        anchor !== undefined &&
        resolved.endsWith('.md') &&
        !anchorsOf(path === '' ? text : readFileSync(join(ROOT, resolved), 'utf8')).has(decodeURIComponent(anchor))
      )
        broken.push(`${where} ${resolved} has no heading #${anchor}`);
    }
  });
  return broken;
}

describe('the links of the README and the guides', () => {
  test('there are links to check, in the README and the index', () => {
    expect(DOCUMENTS).toEqual(expect.arrayContaining(['README.md', 'docs/index.md']));
    const links = (file: string) =>
      proseLines(readFileSync(join(ROOT, file), 'utf8'))
        .join('\n')
        .match(/\]\([^)]+\)/g) ?? [];
    expect(links('README.md').length).toBeGreaterThanOrEqual(10);
    expect(links('docs/index.md').length).toBeGreaterThanOrEqual(15);
  });

  test('every relative link resolves to a file of the repository, and to a heading of a markdown file', () => {
    expect(DOCUMENTS.flatMap((file) => brokenLinks(file, readFileSync(join(ROOT, file), 'utf8')))).toEqual([]);
  });

  test('a missing file, a missing heading and a wrong anchor in the same file are caught; code is not read as links', () => {
    const sample = [
      'See [the guide](missing.md) and [serving](serving.md#no-such-heading).',
      '## Two words',
      'Back to [the top](#two-words), or [elsewhere](#nowhere).',
      '`[not a link](nothing.md)`',
      '```md',
      '[in a block](nothing.md)',
      '```',
    ].join('\n');
    expect(brokenLinks('docs/sample.md', sample)).toEqual([
      'docs/sample.md:1: (missing.md) docs/missing.md does not exist',
      'docs/sample.md:1: (serving.md#no-such-heading) docs/serving.md has no heading #no-such-heading',
      'docs/sample.md:3: (#nowhere) docs/sample.md has no heading #nowhere',
    ]);
  });

  test('anchors are made from headings as GitHub makes them', () => {
    expect([...anchorsOf('# Authorization (OAuth 2.1)\n## Testing your server: `createTestClient`\n### 1. Write a server\n## Options\n## Options\n')]).toEqual([
      'authorization-oauth-21',
      'testing-your-server-createtestclient',
      '1-write-a-server',
      'options',
      'options-1',
    ]);
  });
});
