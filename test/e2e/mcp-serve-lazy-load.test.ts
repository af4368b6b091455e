import { spawn } from 'node:child_process';
import { ROOT } from '@decorum-internal/test-support';

const TRACER = `${ROOT}test/fixtures/trace-loads.mjs`;
const BIN = `${ROOT}packages/cli/dist/bin.js`;
const WEATHER = `${ROOT}examples/weather/dist/weather.js`;
const LIST = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } })}\n`;

/**
 * Runs mcp-serve under the load tracer until `ready(stdout, stderr)`, then stops it; the URLs it had
 * loaded by then (TypeBox's compiler loads in the background after start-up, so what loads while the
 * process winds down says nothing about what the first answer needed).
 */
function loadedBy(args: string[], ready: (stdout: string, stderr: string) => boolean, stop: 'stdin' | 'signal'): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', TRACER, BIN, ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let done = false;
    let loadedAtReady = '';
    const check = () => {
      if (done || !ready(stdout, stderr)) return;
      done = true;
      loadedAtReady = stderr;
      if (stop === 'stdin') child.stdin.end();
      else child.kill('SIGTERM');
    };
    child.stdout.on('data', (d) => ((stdout += d), check()));
    child.stderr.on('data', (d) => ((stderr += d), check()));
    child.once('exit', () =>
      done ? resolve([...loadedAtReady.matchAll(/^LOADED (.+)$/gm)].map((m) => m[1]!)) : reject(new Error(`mcp-serve exited early:\n${stderr}`)),
    );
    child.stdin.write(LIST);
  });
}

const typeBox = (urls: string[]) => urls.filter((url) => url.includes('/node_modules/typebox/'));
const httpStack = (urls: string[]) => urls.filter((url) => /\/packages\/fastify\/|node_modules\/(fastify|jose|@fastify\/[^/]+)\//.test(url));

describe('mcp-serve loads only the transport the run uses', () => {
  test('a stdio run of a built .js module loads no HTTP stack (no @decorum/fastify, fastify, jose)', async () => {
    const urls = await loadedBy([WEATHER], (stdout) => stdout.includes('\n'), 'stdin');
    expect(urls.some((url) => url.includes('/packages/stdio/'))).toBe(true);
    expect(httpStack(urls)).toEqual([]);
    // Listing needs no validator: the first answer did not wait for TypeBox's compiler.
    expect(typeBox(urls)).toEqual([]);
  }, 30_000);

  test('an --http run loads it (the tracer sees what it should)', async () => {
    const urls = await loadedBy([WEATHER, '--http', '--port', '0'], (_stdout, stderr) => stderr.includes('over Streamable HTTP at'), 'signal');
    expect(httpStack(urls).length).toBeGreaterThan(0);
    expect(urls.some((url) => url.includes('/packages/stdio/'))).toBe(false);
  }, 30_000);
});
