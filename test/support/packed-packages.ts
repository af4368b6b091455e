import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './stdio-process.js';

/** The published packages: every workspace under packages/ but the private ones (transport-kit, bundled into its users; examples are private too). */
export function publishedWorkspaces(): string[] {
  const { workspaces } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] };
  const isPrivate = (w: string) => (JSON.parse(readFileSync(join(ROOT, w, 'package.json'), 'utf8')) as { private?: boolean }).private === true;
  return workspaces.filter((w) => w.startsWith('packages/') && !isPrivate(w));
}

/** One tarball of `npm pack`, with the file list npm reported. */
export interface PackedPackage {
  name: string;
  tarball: string;
  files: string[];
}

/** `npm pack`s every published workspace (built beforehand) into `destination`. */
export function packWorkspaces(destination: string): PackedPackage[] {
  const args = ['pack', ...publishedWorkspaces().flatMap((w) => ['-w', w]), '--pack-destination', destination, '--json'];
  const report = JSON.parse(execFileSync('npm', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })) as Array<{
    name: string;
    filename: string;
    files: Array<{ path: string }>;
  }>;
  return report.map((p) => ({ name: p.name, tarball: join(destination, p.filename), files: p.files.map((f) => f.path) }));
}

/** The flags that keep an install quick and quiet on CI: the npm cache first, no audit, no funding. */
export const QUICK_INSTALL = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];

/** A fresh ESM project in `dir` with the given packages (tarball paths or registry specs) installed. */
export function installProject(dir: string, packages: string[]): void {
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'fresh-project', private: true, type: 'module' }, null, 2)}\n`);
  execFileSync('npm', ['install', ...QUICK_INSTALL, ...packages], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}
