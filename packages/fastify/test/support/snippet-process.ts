// Runs a documentation snippet as the user would: a module of its own, in a child process.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './cli-process.js';

const WEATHER = join(ROOT, 'examples/weather/dist/weather.js');

/** A snippet's own code as a module, with only the import of the user's server file and the port changed. */
export function runnable(code: string, tail = ''): string {
  if (!code.includes("from './weather.js'") || !code.includes('port: 3000')) throw new Error("the snippet must import './weather.js' and listen on port 3000");
  return code.replace("from './weather.js'", `from ${JSON.stringify(WEATHER)}`).replace('port: 3000', 'port: 0') + tail;
}

/** Runs a module in a child process until it prints `MCP endpoint: <url>` on stderr. */
export async function start(file: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [file], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, DECORUM_LOG_LEVEL: 'warn' } });
  let stderr = '';
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (c: Buffer) => {
      stderr += String(c);
      const m = /MCP endpoint: (\S+)/.exec(stderr);
      if (m) resolve(m[1]);
    });
    void exited.then(() => reject(new Error(`snippet exited early: ${stderr}`)));
  });
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
