#!/usr/bin/env node
// The committed `create-decorum` entry point: npm links a bin at install time only when its file
// exists, so the bin is this launcher, not the build output (see packages/cli/bin/mcp-serve.js).
import { existsSync } from 'node:fs';

const built = new URL('../dist/bin.js', import.meta.url);
if (!existsSync(built)) {
  process.stderr.write('create-decorum: create-decorum is not built yet: run npm run build first\n');
  process.exit(1);
}
await import(built.href);
