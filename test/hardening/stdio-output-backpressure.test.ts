// Hardening item 1: a client that stops reading stdout must not make mcp-serve grow until it
// crashes (it used to reach ~1 GB and die with `RangeError: Invalid string length`).
// It waits on conditions, never on a clock: a full suite on two busy cores once took longer than
// a fixed 60 s to stream the 700 MiB (641 answers in), which says nothing about the server.
import { spawn } from 'node:child_process';
import { request, MCP_SERVE, ROOT } from '@decorum-internal/test-support';
import { residentMiB } from './support/child-memory.js';
import { cpuTicks } from './support/child-cpu.js';

const REQUESTS = 700; // 700 MiB of answers: more than V8's longest string, and than the bound by far
const BOUND_MIB = 450;
/** Samples (100 ms apart) in a row without CPU time for the server to count as idle: stdout full, stdin paused. */
const IDLE_SAMPLES = 10;
const ANSWER = /^\{"jsonrpc":"2\.0","id":(\d+),"result":\{"resultType":"complete","content":\[\{"type":"text","text":"x{1048576}"\}\]/;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('stdio stops reading while stdout is backed up, stays bounded, and answers every request once reading resumes', async () => {
  const child = spawn(process.execPath, [MCP_SERVE, 'test/hardening/fixtures/big-results.ts'], {
    cwd: ROOT,
    env: { ...process.env, DECORUM_LOG_LEVEL: 'warn' },
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  // 'close', not 'exit': every byte of stdout has been read by then.
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  try {
    // The answers are counted as they stream by, never kept: the test must not hold 700 MiB itself.
    // A line's pieces are joined once, at its newline (joining at every chunk is quadratic).
    const answered = new Set<number>();
    let pieces: string[] = [];
    let bad = 0;
    child.stdout.setEncoding('latin1');
    child.stdout.on('data', (chunk: string) => {
      let from = 0;
      for (let nl = chunk.indexOf('\n'); nl !== -1; from = nl + 1, nl = chunk.indexOf('\n', from)) {
        pieces.push(chunk.slice(from, nl));
        const head = ANSWER.exec(pieces.join(''));
        pieces = [];
        if (head) answered.add(Number(head[1]));
        else bad++;
      }
      if (from < chunk.length) pieces.push(chunk.slice(from));
    });
    child.stdout.pause();

    for (let id = 0; id < REQUESTS; id++) child.stdin.write(`${JSON.stringify(request(id, 'tools/call', { name: 'megabyte' }))}\n`);
    // While nothing is read, the server must stop taking requests and stay small: watched until it
    // has gone idle (its CPU time stands still), however long a busy machine makes that take.
    let peak = 0;
    let ticks = -1;
    for (let idle = 0; idle < IDLE_SAMPLES && child.exitCode === null && peak < BOUND_MIB;) {
      await sleep(100);
      peak = Math.max(peak, residentMiB(child.pid!));
      const now = cpuTicks(child.pid!);
      idle = now === ticks ? idle + 1 : 0;
      ticks = now;
    }
    expect(child.exitCode).toBeNull();
    process.stderr.write(`peak ${peak}\n`);
    expect(peak).toBeLessThan(BOUND_MIB);
    expect(answered.size).toBe(0);

    // Reading resumes and stdin ends: the server answers everything, then exits by itself.
    child.stdout.resume();
    child.stdin.end();
    const code = await closed;
    expect({ answered: answered.size, bad, stderr, code }).toEqual({ answered: REQUESTS, bad: 0, stderr: '', code: 0 });
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}, 300_000);
