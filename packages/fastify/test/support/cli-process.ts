import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const MCP_SERVE = `${ROOT}packages/cli/dist/bin.js`;

/** A running `mcp-serve --http` child process. */
export interface HttpProcess {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  /** Resolves once stderr matches `pattern` (the log is written on pino's own schedule, not with the answer). */
  waitForStderr: (pattern: string | RegExp, timeoutMs?: number) => Promise<string>;
  exited: Promise<number | null>;
}

/**
 * `mcp-serve … --http` as a child process; resolves once it printed its endpoint URL on stderr,
 * within `urlTimeoutMs` (start-up included: a run that waits on purpose, like the bus's bounded
 * wait, passes more). `nodeFlags` go to node itself, for the V8 flags `NODE_OPTIONS` refuses.
 * The default bound is generous: compiling a .ts module took over 10 s on two cores under a full load.
 */
export async function serveHttpProcess(args: string[], env: NodeJS.ProcessEnv = {}, urlTimeoutMs = 25_000, nodeFlags: string[] = []): Promise<HttpProcess> {
  const child = spawn(process.execPath, [...nodeFlags, MCP_SERVE, ...args], {
    cwd: ROOT,
    env: { ...process.env, DECORUM_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`mcp-serve printed no URL within ${urlTimeoutMs} ms; stderr: ${stderr}`)), urlTimeoutMs);
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      stderr += chunk;
      const found = /Streamable HTTP at (http:\/\/\S+)/.exec(stderr);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`mcp-serve exited with ${code}; stderr: ${stderr}`));
    });
  });
  const waitForStderr = (pattern: string | RegExp, timeoutMs = 5000) =>
    new Promise<string>((resolve, reject) => {
      const matches = () => (typeof pattern === 'string' ? stderr.includes(pattern) : pattern.test(stderr));
      if (matches()) return resolve(stderr);
      const onData = () => {
        if (!matches()) return;
        clearTimeout(timer);
        child.stderr!.off('data', onData);
        resolve(stderr);
      };
      const timer = setTimeout(() => {
        child.stderr!.off('data', onData);
        reject(new Error(`stderr did not match ${String(pattern)} within ${timeoutMs} ms; stderr: ${stderr}`));
      }, timeoutMs);
      child.stderr!.on('data', onData);
    });
  return { child, url, stderr: () => stderr, waitForStderr, exited };
}
