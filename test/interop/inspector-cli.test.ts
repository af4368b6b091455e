import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { serveHttpProcess } from '../../packages/fastify/test/support/cli-process.js';
import { MCP_SERVE, ROOT } from '@decorum-internal/test-support';
import { createTask, httpWire } from '../tasks/support/task-wire.js';

/**
 * The MCP Inspector 2.12 (a pinned devDependency) against the weather example, over stdio and
 * Streamable HTTP, in both its eras — `legacy` (initialize, 2025-11-25) and `modern`
 * (2026-07-28):
 * - its one-shot CLI (`mcp-inspector --cli`) reports the negotiated version, lists and calls
 *   tools, reads a resource, gets a prompt. It declares no elicitation capability (its source
 *   hard-codes `elicit: false`, and no flag changes that), so the eliciting tool is refused with
 *   the error that names the missing capability, which the CLI reports on stderr;
 * - its connection CLI (`mcpdo`, same package) declares elicitation, parks the call when the
 *   server asks, and answers with `elicitation/respond`: a live request in the legacy era, an
 *   MRTR round in the modern one.
 * Neither shows progress or list-changed notifications (both set `progress: false`, and neither
 * has a mode that prints them); the SDK clients in dual-era-clients.test.ts cover those.
 */
const run = promisify(execFile);
const require = createRequire(import.meta.url);
const inspectorPackage = require.resolve('@modelcontextprotocol/inspector/package.json');
const bin = (require(inspectorPackage) as { bin: Record<string, string> }).bin;
const INSPECTOR = join(dirname(inspectorPackage), bin['mcp-inspector']);
const MCPDO = join(dirname(inspectorPackage), bin.mcpdo);
const WEATHER = `${ROOT}examples/weather/dist/weather.js`;
const STDIO_TARGET = [process.execPath, MCP_SERVE, WEATHER];
const VERSION = { legacy: '2025-11-25', modern: '2026-07-28' } as const;
const ERAS = ['legacy', 'modern'] as const;
type Era = (typeof ERAS)[number];

/** Everything the Inspector writes (catalog, secrets, the mcpdo daemon's socket) stays in here. */
const scratch = mkdtempSync(join(tmpdir(), 'decorum-inspector-'));
const inspectorEnv = {
  ...process.env,
  HOME: scratch,
  MCP_CATALOG_PATH: join(scratch, 'mcp.json'),
  MCP_INSPECTOR_SECRET_STORE: 'file',
  MCP_INSPECTOR_DAEMON_DIR: join(scratch, 'daemon'),
  MCP_INSPECTOR_DAEMON_TOKEN: randomBytes(32).toString('hex'),
  DECORUM_LOG_LEVEL: 'warn',
};

// The walkthroughs' 150 s: each runs several CLI processes (15 s for the stdio one, idle), and CI's
// runner under the whole suite's load runs such tests 2–3× slower.
async function inspector(args: string[]): Promise<any> {
  const { stdout } = await run(process.execPath, [INSPECTOR, '--cli', ...args], { cwd: ROOT, timeout: 30_000, env: inspectorEnv });
  return JSON.parse(stdout);
}

/** A CLI run that fails: its exit code and the error it printed on stderr. */
async function inspectorFailure(args: string[]): Promise<{ code: number; error: unknown }> {
  const failure = await inspector(args).then(
    () => undefined,
    (error: { code: number; stderr: string }) => error,
  );
  if (failure === undefined) throw new Error(`mcp-inspector --cli ${args.join(' ')} succeeded`);
  return { code: failure.code, error: JSON.parse(failure.stderr.trim().split('\n').at(-1)!) };
}

async function mcpdo(args: string[]): Promise<any> {
  const { stdout } = await run(process.execPath, [MCPDO, '--format', 'json', ...args], { cwd: ROOT, timeout: 30_000, env: inspectorEnv });
  return JSON.parse(stdout);
}

async function walkthrough(target: string[], era: Era): Promise<void> {
  const at = [...target, '--protocol-era', era];
  expect((await inspector([...at, '--method', 'initialize'])).protocolVersion).toBe(VERSION[era]);
  const list = await inspector([...at, '--method', 'tools/list']);
  expect(list.tools.map((t: { name: string }) => t.name)).toEqual(['weather_current', 'weather_forecast', 'weather_alerts_toggle']);
  expect(list.tools[0].inputSchema.required).toEqual(['location']);
  const call = await inspector([...at, '--method', 'tools/call', '--tool-name', 'weather_current', '--tool-arg', 'location=London', 'units=imperial']);
  expect(call).toMatchObject({ isError: false, content: [{ type: 'text', text: expect.stringContaining('57°F') }] });
  const read = await inspector([...at, '--method', 'resources/read', '--uri', 'weather://cities/tokyo']);
  expect(JSON.parse(read.contents[0].text)).toMatchObject({ city: 'tokyo', conditions: 'Sunny' });
  const prompt = await inspector([...at, '--method', 'prompts/get', '--prompt-name', 'weather_report', '--prompt-args', 'location=Tokyo', 'style=formal']);
  expect(prompt.messages[0].content.text).toContain('formal three-sentence weather report for Tokyo');
  const where = era === 'legacy' ? 'the client at initialize' : "this request's clientCapabilities";
  expect(await inspectorFailure([...at, '--method', 'tools/call', '--tool-name', 'weather_forecast', '--tool-arg', 'location=London'])).toEqual({
    code: 1,
    error: { error: { code: 'error', message: `This request needs the client capability "elicitation.form", which ${where} did not declare` } },
  });
}

/** mcpdo connects in `era`, calls the eliciting tool, and answers the question it parks. */
async function answeredElicitation(target: string[], era: Era): Promise<void> {
  const connection = await mcpdo(['connect', '--era', era, '--cwd', ROOT, ...target]);
  expect(connection.protocolEra).toBe(era);
  try {
    const { elicitationPending: pending } = await mcpdo([
      '--connection',
      connection.name,
      'tools/call',
      'weather_forecast',
      '--tool-args-json',
      '{"location":"London"}',
    ]);
    expect(pending).toMatchObject({
      message: 'How many days of forecast for London?',
      mode: 'form',
      // A live elicitation/create on the legacy session; an input_required round on modern.
      origin: era === 'legacy' ? 'server-request' : 'input-required',
      requestedSchema: { type: 'object', required: ['days'] },
    });
    const result = await mcpdo(['elicitation/respond', pending.elicitationId, '{"days":2}']);
    expect(result).toMatchObject({
      isError: false,
      content: [{ type: 'text', text: 'Forecast for London:\nDay 1: Light rain, around 14°C\nDay 2: Light rain, around 15°C' }],
    });
  } finally {
    await mcpdo(['disconnect', connection.name]);
  }
}

let http: Awaited<ReturnType<typeof serveHttpProcess>>;
beforeAll(async () => {
  http = await serveHttpProcess([WEATHER, '--http', '--port', '0']);
});
afterAll(async () => {
  http.child.kill('SIGTERM');
  await http.exited;
  // Stops the mcpdo daemon the tests started (it lives in `scratch`), then removes everything.
  await run(process.execPath, [MCPDO, 'daemon', 'stop'], { cwd: ROOT, timeout: 30_000, env: inspectorEnv }).catch(() => undefined);
  rmSync(scratch, { recursive: true, force: true });
});

describe.each(ERAS)('MCP Inspector CLI interop (%s era)', (era) => {
  test('stdio: the negotiated version, tools, a resource, a prompt; the eliciting tool refused for want of the capability', async () => {
    await walkthrough(STDIO_TARGET, era);
  }, 150_000);

  test('HTTP: the negotiated version, tools, a resource, a prompt; the eliciting tool refused for want of the capability', async () => {
    await walkthrough([http.url], era);
  }, 150_000);
});

describe.each(ERAS)("the Inspector's connection CLI, mcpdo (%s era): an elicitation answered", (era) => {
  test('stdio', async () => {
    await answeredElicitation(['--', ...STDIO_TARGET], era);
  }, 150_000);

  test('HTTP', async () => {
    await answeredElicitation([http.url], era);
  }, 150_000);
});

/**
 * Tasks (io.modelcontextprotocol/tasks, 2026-07-28) on examples/everything. The one-shot CLI runs a
 * task tool to its result (it declares the extension on modern requests and follows the task) but
 * prints only that result, and refuses `--method tasks/get` (not among its one-shot methods). The
 * connection CLI, mcpdo, has `tasks/get` and `tasks/update`, yet prints no task id for a call it
 * runs itself. So the test starts the task with its own task-augmented `tools/call` and mcpdo,
 * in later invocations, reads it parked, answers its question and reads it completed.
 */
describe('the Inspector and Tasks (modern era, HTTP)', () => {
  let everything: Awaited<ReturnType<typeof serveHttpProcess>>;
  beforeAll(async () => {
    everything = await serveHttpProcess([`${ROOT}examples/everything/dist/everything.js`, '--http', '--port', '0']);
  });
  afterAll(async () => {
    everything.child.kill('SIGTERM');
    await everything.exited;
  });

  test('the one-shot CLI runs a task tool to its result', async () => {
    const call = await inspector([
      everything.url,
      '--protocol-era',
      'modern',
      '--method',
      'tools/call',
      '--tool-name',
      'slow_compute',
      '--tool-arg',
      'seconds=0.3',
    ]);
    expect(call).toMatchObject({ isError: false, content: [{ type: 'text', text: 'Computed the result in 0.3 s' }] });
  }, 150_000);

  test('mcpdo reads a task with tasks/get, answers it with tasks/update, and reads it completed', async () => {
    const taskId = await createTask(httpWire(everything.url), 'confirm_delete', { filename: 'notes.md' });
    const connection = await mcpdo(['connect', '--era', 'modern', everything.url]);
    try {
      const at = ['--connection', connection.name];
      const parked = (await mcpdo([...at, 'tasks/get', taskId])).task;
      expect(parked).toMatchObject({ taskId, status: 'input_required' });
      const [key, ask] = Object.entries(parked.raw.inputRequests as Record<string, { params: { message: string } }>)[0]!;
      expect(ask.params.message).toBe('Delete notes.md?');
      expect(
        await mcpdo([...at, 'tasks/update', taskId, '--input-responses', JSON.stringify({ [key]: { action: 'accept', content: { confirm: true } } })]),
      ).toEqual({
        updated: true,
        taskId,
      });
      let done = (await mcpdo([...at, 'tasks/get', taskId])).task;
      for (let tries = 0; done.status !== 'completed' && tries < 20; tries++) done = (await mcpdo([...at, 'tasks/get', taskId])).task;
      expect(done.raw.result).toMatchObject({ content: [{ type: 'text', text: 'Deleted notes.md' }] });
    } finally {
      await mcpdo(['disconnect', connection.name]);
    }
  }, 150_000);
});
