/**
 * The `change` step: what a change costs, as Decorum at two commits (bench/commit-build.mjs)
 * serving the same tools, measured in alternation in the same run, a fresh pair of processes per round.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { compileServers, prepareCommit, resolveCommit } from '../commit-build.mjs';
import { BUILD, CHANGE_ROUNDS, CHANGE_WARMUP, ROOT, log } from './config.mjs';
import { Rounds, httpCombos, httpRound, stdioRound, warmHttp, warmStdio } from './measure.mjs';
import { HTTP_WORKLOADS, verifyHttp } from './workloads/http.mjs';

/**
 * Issue #49 (the core re-hung): the commit before it against HEAD. The acceptance's A/B run, and
 * the default of BENCH_CHANGE with the A/A check below.
 */
export const CHANGE_49 = 'f902eda..HEAD';
/** Issue #49's bound: CPU per call within 2 % of before. */
export const CHANGE_49_BOUND = 1.02;
/** The hardening (issue #13) as it landed: its merge against its first parent. */
export const HARDENING_CHANGE = '186e539^1..186e539';
/** Issue #13's bound: with the hardening, at least 98 % of the throughput without it. */
export const HARDENING_BOUND = 0.98;
/**
 * The change step checked against itself: the same code built in two trees. It should read 1.00;
 * what it reads is the instrument's own bias in the run.
 */
export const SAME_CODE = 'HEAD..HEAD';
/** The changes whose cost the run measures, each as `<before>..<after>` (git revisions; a side may be `<rev>+<patch file>`). */
export const CHANGES = (process.env.BENCH_CHANGE ?? `${CHANGE_49},${SAME_CODE}`).split(',').filter(Boolean);
/** What each known range of the `change` step is, in its section's first line. */
export const CHANGE_TITLES = {
  [CHANGE_49]: 'Issue #49, the core re-hung (the commit before it against HEAD): ',
  [SAME_CODE]: 'The same code twice (an A/A check of this step): ',
  [HARDENING_CHANGE]: 'The hardening as it landed: ',
};
/** The workloads of the step: tools/call (DTO and TypeBox) and tools/list of 50 at each connection count, stdio at 64 in flight. */
export const CHANGE_HTTP_WORKLOADS = ['call-dto', 'call-typebox', 'list-50'];
export const CHANGE_IN_FLIGHT = [64];

/**
 * A change's cost: Decorum built at both sides of `range`, serving the same tools, measured in
 * alternation on the step's workloads over HTTP and stdio. `{ error }` when a side could not be prepared.
 */
export async function measureChange(launcher, range, { sources, swc }) {
  const revs = range.split('..');
  let trees;
  try {
    // The same code on both sides (the A/A check) is built twice, as two different commits are.
    const copy = (i) => (i === 1 && sameTree(revs[0], revs[1]) ? 2 : 1);
    trees = revs.map((rev, i) => prepareCommit({ root: ROOT, build: BUILD, rev, copy: copy(i), log }));
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
  const calls = HTTP_WORKLOADS.filter((w) => CHANGE_HTTP_WORKLOADS.includes(w.id));
  const label = (side) => `${side.commit.slice(0, 10)}${side.patch ? ` + ${side.patch}` : ''} (${side.id})`;
  // Two processes of one build differ by more than the costs this step is for, for as long as they
  // live (docs/perf-notes.md, "A change's cost"): each round starts a fresh pair, warms it and
  // measures it once. Stops early, with what it has, when a side does not start.
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
      await warmStdio(pair, CHANGE_WARMUP, CHANGE_IN_FLIGHT);
      await stdioRound(pair, round, rounds, CHANGE_ROUNDS, CHANGE_IN_FLIGHT);
    }),
  );
  return change;
}

/** Whether two sides name the same code (the same commit and patch). */
function sameTree(before, after) {
  const [a, patchA] = before.split('+');
  const [b, patchB] = after.split('+');
  return patchA === patchB && resolveCommit(ROOT, a) === resolveCommit(ROOT, b);
}
