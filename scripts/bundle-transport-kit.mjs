// `npm pack` of @decorum/core, @decorum/stdio and @decorum/fastify: their private dependency
// @decorum/transport-kit is listed in `bundleDependencies`, but in the workspace it is a link
// hoisted to the root, which npm does not bundle. `prepack` copies its build into the package's own
// node_modules (what npm bundles) and `postpack` removes the copy again. Tests pack the live
// workspace while other tests run its built code, which resolves @decorum/transport-kit from that
// same folder first: the copy is made beside it and renamed into place, and renamed away before it
// is deleted, so no process ever finds it half-written or half-deleted.
// Usage: `bundle-transport-kit.mjs copy|remove`, run by npm in the package folder (its prepack and postpack scripts).
import { cpSync, existsSync, readdirSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const kit = fileURLToPath(new URL('../packages/transport-kit/', import.meta.url));
const copy = join(process.cwd(), 'node_modules', '@decorum', 'transport-kit');

if (process.argv[2] === 'copy') {
  if (!existsSync(join(kit, 'dist', 'index.js'))) {
    process.stderr.write('@decorum/transport-kit is not built: run `npm run build` before packing\n');
    process.exit(1);
  }
  const staged = `${copy}.${process.pid}.staged`;
  rmSync(staged, { recursive: true, force: true });
  for (const file of ['package.json', 'README.md', 'dist'])
    cpSync(join(kit, file), join(staged, file), { recursive: true, filter: (source) => !source.endsWith('.tsbuildinfo') });
  try {
    renameSync(staged, copy);
  } catch {
    // Another pack of this package put its copy in place first: the same build, kept.
    rmSync(staged, { recursive: true, force: true });
  }
} else if (process.argv[2] === 'remove') {
  removeCopy();
  // node_modules/@decorum and node_modules, when the copy was all they held.
  for (const dir of [dirname(copy), dirname(dirname(copy))]) if (existsSync(dir) && readdirSync(dir).length === 0) rmdirSync(dir);
} else {
  process.stderr.write('usage: bundle-transport-kit.mjs copy|remove\n');
  process.exit(2);
}

/** The copy renamed out of the way in one step, then deleted. */
function removeCopy() {
  const leaving = `${copy}.${process.pid}.leaving`;
  try {
    renameSync(copy, leaving);
  } catch {
    return; // no copy (never made, or another pack removed it)
  }
  rmSync(leaving, { recursive: true, force: true });
}
