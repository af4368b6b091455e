/**
 * Log lines a person reads: `mcp-serve` logs readable lines when stderr is a terminal (checked
 * under a real pseudo-terminal, `script` from util-linux) and JSON lines everywhere else, with
 * `--log-format` / `DECORUM_LOG_FORMAT` to choose; the testing kit prints nothing unless asked.
 */
import { execFileSync, spawn } from 'node:child_process';
import { stripVTControlCharacters } from 'node:util';
import { MCP_SERVE, request, ROOT, StdioProcess } from '@decorum-internal/test-support';

const FIXTURE = 'test/fixtures/log-lines.ts';
const CALL = request(1, 'tools/call', { name: 'log_line', arguments: {} });
/** pino-pretty's line for the fixture's warning: time, level, logger name, message (colors taken out first). */
const PRETTY = /^\[\d\d:\d\d:\d\d\.\d{3}\] WARN \(decorum\): a line for the log/m;

/** What stderr shows for the fixture's warning when mcp-serve runs with stdio on pipes. */
async function loggedThroughPipes(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const server = new StdioProcess([MCP_SERVE, FIXTURE, ...args], env);
  try {
    expect((await server.request(CALL)).result.content[0].text).toBe('logged');
    return await server.waitForStderr('a line for the log');
  } finally {
    server.kill();
  }
}

/** Everything a terminal shows (stdout and stderr both) when mcp-serve runs with stdio on a pseudo-terminal. */
async function loggedOnTerminal(args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const command = [process.execPath, MCP_SERVE, FIXTURE, ...args].map((part) => `'${part}'`).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: ROOT, env: { ...process.env, DECORUM_LOG_LEVEL: 'warn', ...env } });
  let shown = '';
  let failed: Error | undefined;
  child.on('error', (error) => (failed = error));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (shown += chunk));
  try {
    child.stdin.write(`${JSON.stringify(CALL)}\n`);
    const deadline = Date.now() + 15_000;
    // The answer comes after the log line (the line is written synchronously in the handler).
    while (!shown.includes('"text":"logged"')) {
      if (failed) throw new Error(`this test needs \`script\` (util-linux) for a pseudo-terminal: ${failed.message}`);
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no answer on the terminal; it showed: ${shown}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Colors out (pino-pretty colors a terminal's lines), and the terminal's CR LF line ends as LF.
    return stripVTControlCharacters(shown).replaceAll('\r', '');
  } finally {
    child.kill('SIGKILL');
  }
}

describe('mcp-serve log format', () => {
  test('stderr not a terminal (a host, a pipe, a file): JSON lines', async () => {
    const stderr = await loggedThroughPipes([], { DECORUM_LOG_FORMAT: undefined });
    const line = stderr.split('\n').find((l) => l.includes('a line for the log'))!;
    expect(JSON.parse(line)).toMatchObject({ level: 40, name: 'decorum', msg: 'a line for the log', n: 1 });
  });

  test('DECORUM_LOG_FORMAT=pretty (or --log-format pretty) forces readable lines through a pipe', async () => {
    expect(await loggedThroughPipes([], { DECORUM_LOG_FORMAT: 'pretty' })).toMatch(PRETTY);
    const stderr = await loggedThroughPipes(['--log-format', 'pretty'], { DECORUM_LOG_FORMAT: undefined });
    expect(stderr).toMatch(PRETTY);
    expect(stderr).not.toContain('"msg"');
  });

  test('a bad --log-format is refused with the choices', () => {
    let failure: { status: number; stderr: string } | undefined;
    try {
      execFileSync(process.execPath, [MCP_SERVE, FIXTURE, '--log-format', 'xml'], { cwd: ROOT, stdio: 'pipe', encoding: 'utf8' });
    } catch (error) {
      failure = error as { status: number; stderr: string };
    }
    expect(failure?.status).toBe(1);
    expect(failure?.stderr).toContain("option '--log-format <format>' argument 'xml' is invalid. must be json or pretty");
  });

  test('stderr a terminal: readable lines by default, JSON with --log-format json', async () => {
    const shown = await loggedOnTerminal([], { DECORUM_LOG_FORMAT: undefined });
    expect(shown).toMatch(PRETTY);
    expect(shown).not.toContain('"msg":"a line for the log"');
    const asJson = await loggedOnTerminal(['--log-format', 'json'], { DECORUM_LOG_FORMAT: undefined });
    expect(asJson).toContain('"msg":"a line for the log"');
    expect(asJson).not.toMatch(PRETTY);
  }, 40_000);
});

describe('the testing kit (createTestClient) and logs', () => {
  const run = (options?: object) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ['test/fixtures/test-client-logs.mjs', ...(options ? [JSON.stringify(options)] : [])], {
        cwd: ROOT,
        env: { ...process.env, DECORUM_LOG_LEVEL: undefined },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.on('exit', (code) => resolve({ code, stdout, stderr }));
    });

  test('prints nothing by default: not a handler’s warning, not a handler’s crash', async () => {
    const { code, stdout, stderr } = await run();
    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: 'warned\nTool "breaks" failed with an internal error.\n', stderr: '' });
  });

  test('logLevel: "error" shows what a failing handler threw', async () => {
    const { code, stderr } = await run({ logLevel: 'error' });
    expect(code).toBe(0);
    const lines = stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg: string; err: { message: string } });
    expect(lines).toEqual([expect.objectContaining({ msg: 'tool threw', err: expect.objectContaining({ message: 'a bug in a handler' }) })]);
  });
});
