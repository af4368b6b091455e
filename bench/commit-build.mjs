/**
 * Decorum as it stood at another commit, built beside the checkout, so that one bench run can
 * measure two versions of the code on the same machine minutes apart (a change's cost is the ratio
 * of the two, never a number from another day). Used by the `change` step and by instructions.mjs.
 *
 * The commit's tree is exported with `git archive` (no worktree is registered) into
 * bench/.build/commits/<sha>+<12 hex>, installed from its own lock file and built with its own `tsc -b`;
 * the result is cached, so later runs reuse it. The bench's current server sources are compiled
 * into that tree, so both versions serve the same tools through their own packages.
 *
 * A side may also be a commit with a patch applied to it, `<rev>+<patch file>` (the file's path from
 * the repository root), to measure an experiment without committing it. A second copy of one
 * commit (`copy`) is a tree of its own, for the A/A check `HEAD..HEAD`.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Runs a command; returns its trimmed output, or throws with the command's last lines of output.
 * @param {string} command
 * @param {string[]} args
 * @param {string} cwd
 */
function run(command, args, cwd) {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  if (r.status === 0) return r.stdout.trim();
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? r.error.message : ''}`.trim().split('\n').slice(-12).join('\n');
  throw new Error(`${command} ${args.join(' ')} failed in ${cwd} (${r.status ?? r.signal})\n${output}`);
}

/**
 * The full commit id of `rev` in the checkout at `root`.
 * @param {string} root
 * @param {string} rev
 */
export function resolveCommit(root, rev) {
  return run('git', ['rev-parse', '--verify', `${rev}^{commit}`], root);
}

/**
 * Prepares a built copy of Decorum at `rev` (a commit, or `<commit>+<patch file>`): exported,
 * patched, installed (`npm ci`) and built once, then cached. `copy` > 1 makes another tree of the
 * same code. Returns its folder, the commit id and the patch's path, if any.
 * @param {{ root: string, build: string, rev: string, copy?: number, log: (message: string) => void }} options
 * @returns {{ dir: string, commit: string, patch: string | undefined }}
 */
export function prepareCommit({ root, build, rev, copy = 1, log }) {
  const [base, patch] = rev.split('+');
  const commit = resolveCommit(root, base);
  // Every tree's folder name has the same length, so that two sides differ in nothing but their
  // code: copies of one build at paths of different lengths ran apart (docs/perf-notes.md, "A
  // change's cost"). A tree without a patch, first copy, keeps the empty patch's hash.
  const patchText = patch === undefined ? '' : readFileSync(join(root, patch));
  const hash = createHash('sha256').update(patchText);
  if (copy > 1) hash.update(`\0copy ${copy}`);
  const dir = join(build, 'commits', `${commit}+${hash.digest('hex').slice(0, 12)}`);
  const ready = join(dir, '.bench-ready');
  if (existsSync(ready)) return { dir, commit, patch };
  log(`bench: preparing Decorum at ${commit.slice(0, 10)} (${rev}) in ${dir}: export, npm ci, build (cached for later runs)`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const archive = spawnSync('git', ['archive', '--format=tar', commit], { cwd: root, maxBuffer: 1 << 30 });
  if (archive.status !== 0) throw new Error(`git archive ${commit} failed: ${archive.stderr}`);
  const untar = spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout });
  if (untar.status !== 0) throw new Error(`tar -x failed: ${untar.stderr}`);
  // git apply as a plain patch tool: the tree sits inside the checkout, whose repository must not be
  // found (paths would be taken from the checkout's root).
  if (patch !== undefined) {
    const applied = spawnSync('git', ['apply', join(root, patch)], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, GIT_CEILING_DIRECTORIES: join(dir, '..') },
    });
    if (applied.status !== 0) throw new Error(`${patch} does not apply to ${commit.slice(0, 10)}: ${applied.stderr.trim().split('\n').slice(-4).join(' ')}`);
  }
  run('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], dir);
  run(process.execPath, [join(dir, 'node_modules/typescript/bin/tsc'), '-b', 'tsconfig.build.json'], dir);
  writeFileSync(ready, `${commit}${patch === undefined ? '' : ` + ${patch}`}${copy > 1 ? ` (copy ${copy})` : ''}\n`);
  return { dir, commit, patch };
}

/**
 * Compiles the bench's server sources (bench/servers/*.ts) into `out` with mcp-serve's swc options
 * (decorator metadata kept, as users' code is compiled). The servers' `@decorum/*` imports resolve
 * from where `out` sits: the checkout's packages, or those of a tree made by `prepareCommit`.
 * @param {{ swc: typeof import('@swc/core'), swcOptions: (filename: string) => object, sources: string, out: string }} options
 * @returns {string} `out`
 */
export function compileServers({ swc, swcOptions, sources, out }) {
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, '..', 'package.json'), '{ "type": "module" }\n');
  for (const file of readdirSync(sources).filter((f) => f.endsWith('.ts'))) {
    const filename = join(sources, file);
    const { code } = swc.transformSync(readFileSync(filename, 'utf8'), swcOptions(filename));
    writeFileSync(join(out, file.replace(/\.ts$/, '.js')), code);
  }
  return out;
}

/**
 * mcp-serve's own swc options (from the checkout's built CLI) and swc itself, so that the bench
 * compiles its servers as users' code is compiled.
 * @param {string} root the checkout
 */
export async function loadSwc(root) {
  const { swcOptions } = await import(pathToFileURL(join(root, 'packages/cli/dist/ts-loader/swc-options.js')).href);
  return { swc: createRequire(join(root, 'package.json'))('@swc/core'), swcOptions };
}

/**
 * Builds the checkout and compiles the bench's servers into bench/.build/servers exactly as a
 * bench run does (run.mjs with no workload selected), for the scripts that measure one thing
 * (profile.mjs, instructions.mjs). Exits the process when that fails.
 * @param {string} root the checkout
 */
export function buildLikeTheBench(root) {
  const prep = spawnSync(process.execPath, [join(root, 'bench', 'run.mjs')], {
    cwd: root,
    env: { ...process.env, BENCH_ONLY: '__none__', BENCH_OUT: join(root, 'bench', '.build', 'tmp', 'none.md') },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (prep.status !== 0) process.exit(prep.status ?? 1);
}
