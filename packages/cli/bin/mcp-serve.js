#!/usr/bin/env node
// The committed `mcp-serve` entry point. npm links a package's bin at install time only when the
// file exists, so the bin cannot be the build output: this launcher exists from the first
// `npm ci`, which keeps `npx mcp-serve` inside the repository instead of asking the registry.
import { existsSync } from 'node:fs';

const built = new URL('../dist/bin.js', import.meta.url);
if (!existsSync(built)) {
  process.stderr.write('mcp-serve: @decorum/cli is not built yet: run npm run build first\n');
  process.exit(1);
}
await import(built.href);
