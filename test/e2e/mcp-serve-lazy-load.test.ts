import { spawn } from 'node:child_process';
import { ROOT } from '@decorum-internal/test-support';

const TRACER = `${ROOT}test/fixtures/trace-loads.mjs`;
const BIN = `${ROOT}packages/cli/dist/bin.js`;
const WEATHER = `${ROOT}examples/weather/dist/weather.js`;
const LIST = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } })}\n`;

/**
 * Runs mcp-serve under the load tracer until `ready(stdout, stderr)`, then stops it; the URLs it had
 * loaded by then (TypeBox's compiler loads in the background after start-up, so what loads while the
 * process winds down says nothing about what the first answer needed). `hold`: a module (part of its
 * URL) the tracer never lets load.
 */
function loadedBy(
  args: string[],
  ready: (stdout: string, stderr: string) => boolean,
  stop: 'stdin' | 'signal',
  hold?: string,
  settleMs = 0,
): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const env = hold === undefined ? process.env : { ...process.env, TRACE_HOLD: hold };
    const child = spawn(process.execPath, ['--import', TRACER, BIN, ...args], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let done = false;
    let loadedAtReady = '';
    const check = () => {
      if (done || !ready(stdout, stderr)) return;
      done = true;
      // settleMs: what else loads while the server sits idle after `ready`.
      setTimeout(() => {
        loadedAtReady = stderr;
        if (stop === 'stdin') child.stdin.end();
        else child.kill('SIGTERM');
      }, settleMs);
    };
    child.stdout.on('data', (d) => ((stdout += d), check()));
    child.stderr.on('data', (d) => ((stderr += d), check()));
    child.once('exit', () =>
      done ? resolve([...loadedAtReady.matchAll(/^LOADED (.+)$/gm)].map((m) => m[1]!)) : reject(new Error(`mcp-serve exited early:\n${stderr}`)),
    );
    child.stdin.write(LIST);
  });
}

const httpStack = (urls: string[]) => urls.filter((url) => /\/packages\/fastify\/|node_modules\/(fastify|jose|@fastify\/[^/]+)\//.test(url));

describe('mcp-serve loads only the transport the run uses', () => {
  test('a stdio run of a built .js module loads no HTTP stack (no @decorum/fastify, fastify, jose)', async () => {
    const urls = await loadedBy([WEATHER], (stdout) => stdout.includes('\n'), 'stdin');
    expect(urls.some((url) => url.includes('/packages/stdio/'))).toBe(true);
    expect(httpStack(urls)).toEqual([]);
  }, 30_000);

  test("listing needs no validator: tools/list is answered while TypeBox's compiler cannot load at all", async () => {
    // The compiler's background load starts right after start-up and may run beside the first
    // answer; held forever here, the answer still comes, so it never waited for the compiler.
    const urls = await loadedBy([WEATHER], (stdout) => stdout.includes('\n'), 'signal', '/node_modules/typebox/build/compile/');
    expect(urls.some((url) => url.includes('/packages/stdio/'))).toBe(true);
  }, 30_000);

  test("an idle stdio server does not load TypeBox's compiler; --preload-validators loads it in the background", async () => {
    const compiler = (urls: string[]) => urls.filter((url) => url.includes('/node_modules/typebox/build/compile/'));
    // Listed, then idle for a while: nothing needed a validator, so nothing loaded one.
    const idle = await loadedBy([WEATHER], (stdout) => stdout.includes('\n'), 'signal', undefined, 700);
    expect(compiler(idle)).toEqual([]);
    // With the flag it loads without any call (the tracer shows it arriving on stderr).
    const preloaded = await loadedBy([WEATHER, '--preload-validators'], (_stdout, stderr) => stderr.includes('/node_modules/typebox/build/compile/'), 'signal');
    expect(compiler(preloaded).length).toBeGreaterThan(0);
  }, 30_000);

  test('an --http run loads it (the tracer sees what it should)', async () => {
    const urls = await loadedBy([WEATHER, '--http', '--port', '0'], (_stdout, stderr) => stderr.includes('over Streamable HTTP at'), 'signal');
    expect(httpStack(urls).length).toBeGreaterThan(0);
    expect(urls.some((url) => url.includes('/packages/stdio/'))).toBe(false);
  }, 30_000);
});
