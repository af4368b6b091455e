// `npm start`: install if needed, build, and serve the weather example over stdio.
// Extra arguments go to mcp-serve, e.g. `npm start -- --http --port 3000`.
import { spawnSync } from 'node:child_process';
import { build, ensureInstalled, root } from './ensure-install.mjs';

ensureInstalled();
build();
const args = ['packages/cli/dist/bin.js', 'examples/weather/dist/weather.js', ...process.argv.slice(2)];
if (!args.includes('--http')) {
  process.stderr.write('Serving the weather example over stdio: paste one JSON-RPC request per line (see README), Ctrl-D to stop.\n');
}
const run = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
process.exit(run.status ?? 1);
