import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './stdio-process.js';

/**
 * Runs `node <args>` from the repository root to its end and returns what it printed on stdout;
 * fails the test when it wrote to stderr or exited with another status than 0. For probes that
 * print V8's own output (`%DebugPrint`, `--trace-gc-nvp`): V8 prints from C++ through a buffer that
 * a pipe does not always get whole at exit, so stdout goes to a file.
 */
export function nodeOutput(args: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'node-output-'));
  const file = join(dir, 'out.txt');
  const fd = openSync(file, 'w');
  try {
    const run = spawnSync(process.execPath, args, { cwd: ROOT, stdio: ['ignore', fd, 'pipe'], encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    return readFileSync(file, 'utf8');
  } finally {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
}
