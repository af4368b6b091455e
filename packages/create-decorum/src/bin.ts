#!/usr/bin/env node
import { spawnSync } from 'node:child_process';
import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import { scaffold, ScaffoldError } from './scaffold.js';

const USAGE = 'usage: npm create decorum@latest <folder> [-- --name <package name>] [--decorum-from <folder of tarballs>] [--install]';

function main(): number {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      'decorum-from': { type: 'string' },
      install: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (positionals.length !== 1)
    throw new ScaffoldError(positionals.length ? `one folder please (got ${positionals.join(', ')})` : 'name the folder of the new project');
  const [directory] = positionals;
  scaffold({ directory, name: values.name, decorumFrom: values['decorum-from'] });
  process.stdout.write(`Created ${directory}.\n`);
  const cd = relative(process.cwd(), directory) || '.';
  if (values.install) {
    const npm = spawnSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: directory, stdio: 'inherit', shell: process.platform === 'win32' });
    if (npm.status !== 0) return npm.status ?? 1;
    process.stdout.write(`\nNext:\n  cd ${cd}\n  npm test\n  npm start\n`);
  } else {
    process.stdout.write(`\nNext:\n  cd ${cd}\n  npm install\n  npm test\n  npm start\n`);
  }
  return 0;
}

try {
  process.exitCode = main();
} catch (error) {
  const known = error instanceof ScaffoldError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
  process.stderr.write(`create-decorum: ${known ? (error as Error).message : ((error as Error).stack ?? String(error))}\n${known ? `${USAGE}\n` : ''}`);
  process.exitCode = 1;
}
