import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const MCP_SERVE = `${ROOT}packages/cli/dist/bin.js`;

/** Extra time for a process's first output: start-up, not the request, on a busy machine. */
const STARTUP_ALLOWANCE_MS = 10_000;

/**
 * A real child process speaking newline-delimited JSON-RPC: send lines, await messages by
 * predicate, and read what it printed on stderr.
 */
export class StdioProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly messages: Array<Record<string, any>> = [];
  readonly rawLines: string[] = [];
  stderr = '';
  private buffer = '';
  private waiters: Array<() => void> = [];
  readonly exited: Promise<number | null>;

  /** `args` for this Node, or for `options.command` (e.g. `npx`), run in `options.cwd` (default: the root). */
  constructor(args: string[], env: NodeJS.ProcessEnv = {}, options: { command?: string; cwd?: string } = {}) {
    this.child = spawn(options.command ?? process.execPath, args, { cwd: options.cwd ?? ROOT, env: { ...process.env, DECORUM_LOG_LEVEL: 'warn', ...env } });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      this.buffer += chunk;
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) !== -1) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        this.rawLines.push(line);
        this.messages.push(JSON.parse(line));
        for (const wake of this.waiters.splice(0)) wake();
      }
    });
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk: string) => {
      this.stderr += chunk;
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.exited = new Promise((resolve) =>
      this.child.on('exit', (code) => {
        for (const wake of this.waiters.splice(0)) wake();
        resolve(code);
      }),
    );
  }

  static serve(module: string, extra: string[] = [], env?: NodeJS.ProcessEnv): StdioProcess {
    return new StdioProcess([MCP_SERVE, module, ...extra], env);
  }

  send(message: unknown): void {
    this.child.stdin.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);
  }

  /**
   * Resolves with the first message (seen so far or later) matching `predicate`. Until the process
   * has written anything, `timeoutMs` starts after a start-up allowance: loading a `.ts` module on a
   * loaded CI machine took more than the 5 s meant for the answer itself.
   */
  async waitFor(predicate: (m: Record<string, any>) => boolean, timeoutMs = 5000): Promise<Record<string, any>> {
    const deadline = Date.now() + timeoutMs + (this.rawLines.length === 0 ? STARTUP_ALLOWANCE_MS : 0);
    for (;;) {
      const found = this.messages.find(predicate);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no matching message within ${timeoutMs} ms; got ${JSON.stringify(this.messages)}; stderr: ${this.stderr}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(10, deadline - Date.now()));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /**
   * Resolves once stderr matches `pattern`. The log is written apart from stdout (pino flushes on
   * its own schedule), so an answer on stdout can arrive before the log line of the same event.
   */
  async waitForStderr(pattern: string | RegExp, timeoutMs = 5000): Promise<string> {
    const matches = () => (typeof pattern === 'string' ? this.stderr.includes(pattern) : pattern.test(this.stderr));
    const deadline = Date.now() + timeoutMs;
    while (!matches()) {
      if (Date.now() > deadline) throw new Error(`stderr did not match ${String(pattern)} within ${timeoutMs} ms; stderr: ${this.stderr}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(10, deadline - Date.now()));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.stderr;
  }

  /** Sends a request and waits for the response with its id. */
  async request(message: { id: string | number; [key: string]: unknown }): Promise<Record<string, any>> {
    this.send(message);
    return this.waitFor((m) => m.id === message.id && ('result' in m || 'error' in m));
  }

  /** Waits until the process has exited, at most `timeoutMs`. */
  async exit(timeoutMs = 5000): Promise<number | null> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('process did not exit')), timeoutMs)));
    try {
      return await Promise.race([this.exited, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }
}
