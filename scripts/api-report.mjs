// One API report per entry point (every `exports` key of every published package), made by
// @microsoft/api-extractor from the built .d.ts files into api/<package>.<entry>.api.md.
//   node scripts/api-report.mjs check    fails when a report differs from the build, is missing or is stale
//   node scripts/api-report.mjs update   rewrites the reports (then review and commit the diff)
// Build first (`npm run api:check` and `npm run api:update` do). The entry points are read from the
// package.json files, so a new entry point or package needs no change here, only `api:update`.
// A report holds no source line numbers (withoutLineNumbers), so moving a declaration changes no report.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';

const root = fileURLToPath(new URL('..', import.meta.url));
const reportFolder = join(root, 'api');

/** Every entry point of every published package: its report's name and its built .d.ts. */
function entryPoints() {
  const { workspaces } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return workspaces
    .filter((workspace) => workspace.startsWith('packages/'))
    .flatMap((workspace) => {
      const manifest = JSON.parse(readFileSync(join(root, workspace, 'package.json'), 'utf8'));
      if (manifest.private) return [];
      const short = manifest.name.replace(/^@decorum\//, '');
      return Object.entries(manifest.exports ?? {}).map(([subpath, target]) => ({
        packageFolder: join(root, workspace),
        types: join(root, workspace, target.types),
        report: `${short}.${subpath === '.' ? 'index' : subpath.slice(2).replaceAll('/', '-')}.api.md`,
      }));
    });
}

/** api-extractor's settings for one entry point: the report only (no rollup, no doc model), written into `outFolder`. */
function configFor(entry, outFolder) {
  return {
    projectFolder: entry.packageFolder,
    mainEntryPointFilePath: entry.types,
    compiler: {
      overrideTsconfig: {
        compilerOptions: {
          target: 'ES2022',
          lib: ['ES2023'],
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          types: ['node'],
          skipLibCheck: true,
          strict: true,
        },
        files: [entry.types],
      },
    },
    apiReport: { enabled: true, reportFileName: entry.report, reportFolder: outFolder, reportTempFolder: join(outFolder, 'temp') },
    docModel: { enabled: false },
    dtsRollup: { enabled: false },
    tsdocMetadata: { enabled: false },
    messages: {
      compilerMessageReporting: { default: { logLevel: 'warning' } },
      // Release tags are not used; a type a signature uses but the entry point does not export is
      // noted in the report, where a reviewer sees it.
      extractorMessageReporting: {
        default: { logLevel: 'none', addToApiReportFile: false },
        'ae-forgotten-export': { logLevel: 'none', addToApiReportFile: true },
      },
      tsdocMessageReporting: { default: { logLevel: 'none' } },
    },
  };
}

/**
 * The report without source positions: api-extractor ends a report with the warnings it could not
 * place beside a declaration, each as `// src/file.ts:LINE:COL - (ae-…) …`; they keep their file, lose
 * their line and column, and are sorted, so that only a change of what they say changes the report.
 */
export function withoutLineNumbers(report) {
  const eol = report.includes('\r\n') ? '\r\n' : '\n'; // api-extractor writes CRLF
  const lines = report.split(eol);
  const start = lines.indexOf('// Warnings were encountered during analysis:');
  if (start < 0) return report;
  let end = start + 2; // the heading, then a lone `//`
  while (end < lines.length && lines[end].startsWith('// ') && / - \(ae-[a-z-]+\) /.test(lines[end])) end++;
  const warnings = lines.slice(start + 2, end).map((line) => line.replace(/^(\/\/ \S+?):\d+:\d+ - /, '$1 - '));
  return [...lines.slice(0, start + 2), ...[...new Set(warnings)].sort(), ...lines.slice(end)].join(eol);
}

/** The report api-extractor makes of one entry point, without line numbers; `undefined` and `problems` filled when it fails. */
export function reportOf(entry, scratchFolder, problems) {
  const outFolder = mkdtempSync(join(scratchFolder, 'report-'));
  const config = ExtractorConfig.prepare({
    configObject: configFor(entry, outFolder),
    configObjectFullPath: join(entry.packageFolder, 'api-extractor.json'),
    packageJsonFullPath: join(entry.packageFolder, 'package.json'),
  });
  const result = Extractor.invoke(config, { localBuild: true, showVerboseMessages: false, messageCallback: quiet });
  if (!result.succeeded) {
    problems.push(`${entry.report}: api-extractor failed (${result.errorCount} errors)`);
    return undefined;
  }
  return withoutLineNumbers(readFileSync(join(outFolder, entry.report), 'utf8'));
}

/** api-extractor's progress lines and its notes about report files stay quiet (this script says it); its warnings and errors are printed. */
function quiet(message) {
  if (message.logLevel === 'info' || message.logLevel === 'verbose' || message.logLevel === 'none') message.handled = true;
  if (message.messageId.startsWith('console-api-report-')) message.handled = true;
}

/** Checks (`check`) or rewrites (`update`) every report in api/; the problems found, one line each. */
function run(mode) {
  const entries = entryPoints();
  const problems = [];
  const scratchFolder = mkdtempSync(join(tmpdir(), 'decorum-api-'));
  try {
    for (const entry of entries) {
      if (!existsSync(entry.types)) {
        problems.push(`${entry.report}: ${entry.types.slice(root.length)} is not built (run npm run build)`);
        continue;
      }
      const file = join(reportFolder, entry.report);
      const committed = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
      if (mode === 'check' && committed === undefined) {
        problems.push(`${entry.report}: no report yet for this entry point (run npm run api:update and commit it)`);
        continue;
      }
      const report = reportOf(entry, scratchFolder, problems);
      if (report === undefined) continue;
      if (report === committed) process.stdout.write(`ok       api/${entry.report}\n`);
      else if (mode === 'check') problems.push(`${entry.report}: differs from the build (run npm run api:update, review and commit the diff)`);
      else {
        writeFileSync(file, report);
        process.stdout.write(`updated  api/${entry.report}\n`);
      }
    }
    // A report whose entry point is gone.
    const expected = new Set(entries.map((entry) => entry.report));
    for (const file of existsSync(reportFolder) ? readdirSync(reportFolder) : []) {
      if (!file.endsWith('.api.md') || expected.has(file)) continue;
      if (mode === 'update') {
        unlinkSync(join(reportFolder, file));
        process.stdout.write(`removed  api/${file}\n`);
      } else problems.push(`${file}: no entry point makes this report any more (run npm run api:update)`);
    }
  } finally {
    rmSync(scratchFolder, { recursive: true, force: true });
  }
  return problems;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const mode = process.argv[2];
  if (mode !== 'check' && mode !== 'update') {
    process.stderr.write('usage: node scripts/api-report.mjs check|update\n');
    process.exit(2);
  }
  const problems = run(mode);
  if (problems.length > 0) {
    process.stderr.write(`API reports (api/):\n${problems.map((p) => `  ${p}`).join('\n')}\n`);
    process.exit(1);
  }
}
