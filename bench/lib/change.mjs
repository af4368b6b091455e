/**
 * The `change` step: what a change costs, as Decorum at two commits (bench/commit-build.mjs)
 * serving the same tools, measured in alternation in the same run, a fresh pair of processes per round.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { compileServers, prepareCommit } from '../commit-build.mjs';
import { BUILD, CHANGE_ROUNDS, CHANGE_WARMUP, ROOT, log } from './config.mjs';
import { Rounds, httpCombos, httpRound, stdioRound, warmHttp, warmStdio } from './measure.mjs';
import { HTTP_WORKLOADS, verifyHttp } from './workloads/http.mjs';

/**
 * The changes whose cost the run measures, each as `<before>..<after>` (git revisions; a side may
 * be `<rev>+<patch file>`, see commit-build.mjs). By default, the hardening (issue #13) as it is
 * now: the code against the same code with the hardening's per-request steps taken out. Its merge
 * against its first parent (the hardening as it landed) is measured when BENCH_CHANGE names it.
 */
export const HARDENING_CHANGE = '186e539^1..186e539';
export const HARDENING_TODAY = 'HEAD+bench/patches/without-hardening.patch..HEAD';
/** Issue #13's bound: with the hardening, at least 98 % of the throughput without it. */
export const HARDENING_BOUND = 0.98;
/**
 * The change step checked against itself: the same code built in two trees, laid out as the
 * hardening's two are. It should read 1.00; what it reads is the instrument's own bias in the run.
 */
export const SAME_CODE = 'HEAD+bench/patches/same-code.patch..HEAD';
export const CHANGES = (process.env.BENCH_CHANGE ?? `${HARDENING_TODAY},${SAME_CODE}`).split(',').filter(Boolean);
/** What each known range of the `change` step is, in its section's first line. */
export const CHANGE_TITLES = {
  [HARDENING_TODAY]: 'The hardening as it is now: ',
  [SAME_CODE]: 'The same code twice (an A/A check of this step): ',
  [HARDENING_CHANGE]: 'The hardening as it landed: ',
};

/**
 * A change's cost: Decorum built at both sides of `range`, serving the same tools, measured in
 * alternation on tools/call over HTTP and stdio. `{ error }` when a side could not be prepared.
 */
export async function measureChange(launcher, range, { sources, swc }) {
  const revs = range.split('..');
  let trees;
  try {
    trees = revs.map((rev) => prepareCommit({ root: ROOT, build: BUILD, rev, log }));
  } catch (error) {
    return { error: String(error.message) };
  }
  const subject = (commit) => spawnSync('git', ['log', '-1', '--format=%s', commit], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
  const sides = trees.map(({ dir, commit, patch }, i) => ({
    id: i === 0 ? 'before' : 'after',
    commit,
    patch,
    subject: subject(commit),
    dir,
    servers: compileServers({ ...swc, sources, out: join(dir, 'bench', '.build-current', 'servers') }),
  }));
  const change = { range, sides: sides.map(({ id, commit, patch, subject }) => ({ id, commit, patch, subject })), http: {}, stdio: {} };
  const calls = HTTP_WORKLOADS.filter((w) => w.id === 'call-typebox' || w.id === 'call-dto');
  const label = (side) => `${side.commit.slice(0, 10)}${side.patch ? ` + ${side.patch}` : ''} (${side.id})`;
  // Two processes of the same build differ by up to ~8 % for as long as they live (measured
  // 2026-12-05: pairs of one build read 0.92-1.00 of each other, each pair steady over 8 rounds),
  // more than the costs this step is for. So each round starts a fresh pair, warms it and
  // measures it once: the rounds sample that difference instead of keeping one draw of it.
  // Stops early, with what it has, when a side does not start.
  const eachRoundAfresh = async (startPair, measure) => {
    const rounds = new Rounds();
    for (let round = 1; round <= CHANGE_ROUNDS; round++) {
      const pair = await startPair();
      if (pair.length === 2) await measure(pair, round, rounds);
      for (const t of pair) await t.proc.stop();
      if (pair.length !== 2) break;
    }
    return rounds.summaries();
  };
  const combos = httpCombos(calls);
  // Checked in the first round; a workload a side fails is left out of every round, so the
  // rounds of both sides stay paired.
  let broken;
  const startHttpPair = async () => {
    const pair = (
      await Promise.all(sides.map((side) => launcher.startHttp(`change:${side.id}`, `Decorum at ${label(side)}`, join(side.servers, 'decorum-http.js'))))
    ).filter(Boolean);
    for (const t of pair) t.id = t.id.slice('change:'.length);
    return pair;
  };
  Object.assign(
    change.http,
    await eachRoundAfresh(startHttpPair, async (pair, round, rounds) => {
      if (!broken) {
        broken = {};
        for (const t of pair) {
          broken[t.id] = {};
          for (const w of calls) {
            const v = await verifyHttp(t.port, w);
            if (v.error) broken[t.id][w.id] = v.error;
          }
        }
      }
      for (const t of pair) Object.assign(t.broken, broken[t.id]);
      await warmHttp(pair, combos, CHANGE_WARMUP);
      await httpRound(pair, combos, round, rounds, CHANGE_ROUNDS);
    }),
  );
  const startStdioPair = async () => {
    const pair = [];
    for (const side of sides) {
      const t = await launcher.startStdio(`change:${side.id}`, `mcp-serve at ${label(side)}`, [
        join(side.dir, 'packages/cli/dist/bin.js'),
        join(side.servers, 'decorum-stdio.js'),
      ]);
      if (t) pair.push({ ...t, id: side.id });
    }
    return pair;
  };
  Object.assign(
    change.stdio,
    await eachRoundAfresh(startStdioPair, async (pair, round, rounds) => {
      await warmStdio(pair, CHANGE_WARMUP);
      await stdioRound(pair, round, rounds, CHANGE_ROUNDS);
    }),
  );
  return change;
}
