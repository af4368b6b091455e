// `npm pack` of @decorum/core, @decorum/stdio and @decorum/fastify: their private dependency
// @decorum/transport-kit is listed in `bundleDependencies`, but in the workspace it is a link
// hoisted to the root, which npm does not bundle. `prepack` copies its build into the package's own
// node_modules (what npm bundles) and `postpack` removes the copy again.
// Usage: `bundle-transport-kit.mjs copy|remove`, run by npm in the package folder (its prepack and postpack scripts).
import { cpSync, existsSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const kit = fileURLToPath(new URL('../packages/transport-kit/', import.meta.url));
const copy = join(process.cwd(), 'node_modules', '@decorum', 'transport-kit');

if (process.argv[2] === 'copy') {
  if (!existsSync(join(kit, 'dist', 'index.js'))) {
    process.stderr.write('@decorum/transport-kit is not built: run `npm run build` before packing\n');
    process.exit(1);
  }
  rmSync(copy, { recursive: true, force: true });
  for (const file of ['package.json', 'README.md', 'dist'])
    cpSync(join(kit, file), join(copy, file), { recursive: true, filter: (source) => !source.endsWith('.tsbuildinfo') });
} else if (process.argv[2] === 'remove') {
  rmSync(copy, { recursive: true, force: true });
  // node_modules/@decorum and node_modules, when the copy was all they held.
  for (const dir of [dirname(copy), dirname(dirname(copy))]) if (existsSync(dir) && readdirSync(dir).length === 0) rmdirSync(dir);
} else {
  process.stderr.write('usage: bundle-transport-kit.mjs copy|remove\n');
  process.exit(2);
}
