// Fails when a file of the repository points outside it: a relative path that climbs above the
// root, a machine-specific absolute path, or the brief's `shared/` folder that a user's clone
// does not have. A clone is the whole product; CI runs this, and so does a test.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Third-party data whose text is not ours to police (and holds no paths we resolve). */
const SKIPPED = [/^package-lock\.json$/, /^test\/spec-data\//, /\.(png|jpe?g|gif|ico|woff2?)$/];

/** Paths that only exist on some machine, never in a clone. */
const FOREIGN = [
  { pattern: /(?<![\w.-])\/(?:work|home|Users|root|mnt)\/[\w.-]/, why: 'an absolute path on somebody’s machine' },
  { pattern: /(?<![\w-])shared\/spec\b|\.\.\/shared\b/, why: 'the brief’s shared/ folder, which a clone does not have' },
];

/** Marks a line that quotes a bad path on purpose (the checker's own test samples). */
const SAMPLE = 'self-contained: sample';

/** A `../…` run at the start of a quoted string, a markdown link target or a word. */
const CLIMB = /(?<=^|['"`(\s=])((?:\.\.\/)+[^\s'"`)\]]*)/g;

function repositoryFiles() {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' });
  return listed.split('\0').filter((file) => file && !SKIPPED.some((skip) => skip.test(file)));
}

/** Where `text`, the content of the repository file `file`, points outside the repository. */
export function escapesIn(file, text) {
  const problems = [];
  const inside = root.endsWith(sep) ? root : root + sep;
  text.split('\n').forEach((line, index) => {
    if (line.includes(SAMPLE)) return;
    const where = `${file}:${index + 1}`;
    for (const { pattern, why } of FOREIGN) if (pattern.test(line)) problems.push(`${where}: ${why}: ${line.trim()}`);
    for (const [, climb] of line.matchAll(CLIMB)) {
      const target = resolve(root, dirname(file), climb);
      if (!`${target}${sep}`.startsWith(inside)) problems.push(`${where}: '${climb}' leaves the repository (resolves to ${relative(root, target)})`);
    }
  });
  return problems;
}

/** Every place a repository file points outside the repository, as `file:line: why`. */
export function findEscapes() {
  return repositoryFiles().flatMap((file) => {
    try {
      return escapesIn(file, readFileSync(resolve(root, file), 'utf8'));
    } catch {
      return []; // deleted in the work tree but still in the index
    }
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const problems = findEscapes();
  if (problems.length > 0) {
    process.stderr.write(`The repository must stand alone; these lines point outside it:\n${problems.join('\n')}\n`);
    process.exit(1);
  }
  process.stdout.write('self-contained: no path leaves the repository\n');
}
