// Hardening item 1: a client that stops reading stdout must not make mcp-serve grow until it
// crashes (it used to reach ~1 GB and die with `RangeError: Invalid string length`).
import { spawn } from 'node:child_process';
import { request, MCP_SERVE, ROOT } from '@decorum-internal/test-support';
import { residentMiB } from './support/child-memory.js';

const REQUESTS = 700; // 700 MiB of answers: more than V8's longest string, and than the bound by far
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('stdio stops reading while stdout is backed up, stays bounded, and answers every request once reading resumes', async () => {
  const child = spawn(process.execPath, [MCP_SERVE, 'test/hardening/fixtures/big-results.ts'], {
    cwd: ROOT,
    env: { ...process.env, DECORUM_LOG_LEVEL: 'warn' },
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  try {
    // The answers are counted as they stream by, never kept: the test must not hold 700 MiB itself.
    const answered = new Set<number>();
    let partial = '';
    let bad = 0;
    child.stdout.setEncoding('latin1');
    child.stdout.on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop()!;
      for (const line of lines) {
        const head = /^\{"jsonrpc":"2\.0","id":(\d+),"result":\{"resultType":"complete","content":\[\{"type":"text","text":"x{1048576}"\}\]/.exec(line);
        if (head) answered.add(Number(head[1]));
        else bad++;
      }
    });
    child.stdout.pause();

    for (let id = 0; id < REQUESTS; id++) child.stdin.write(`${JSON.stringify(request(id, 'tools/call', { name: 'megabyte' }))}\n`);
    // While nothing is read, the server must stop taking requests and stay small.
    let peak = 0;
    for (let i = 0; i < 30; i++) {
      await sleep(100);
      peak = Math.max(peak, residentMiB(child.pid!));
    }
    expect(child.exitCode).toBeNull();
    process.stderr.write(`peak ${peak}\n`);
    expect(peak).toBeLessThan(450);

    child.stdout.resume();
    const deadline = Date.now() + 60_000;
    while (answered.size + bad < REQUESTS && Date.now() < deadline && child.exitCode === null) await sleep(50);
    expect({ answered: answered.size, bad, stderr }).toEqual({ answered: REQUESTS, bad: 0, stderr: '' });
    child.stdin.end();
    expect(await exited).toBe(0);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}, 90_000);
