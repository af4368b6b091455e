import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { serveHttpProcess } from '../../packages/fastify/test/support/cli-process.js';
import { MCP_SERVE, ROOT } from '@decorum-internal/test-support';

/**
 * The official clients against the weather example, on both eras, over stdio and Streamable HTTP
 * (one running HTTP server for all of them): the v1 client (`@modelcontextprotocol/sdk` 1.x), the
 * v2 client (`@modelcontextprotocol/client`) in its default legacy mode, and the v2 client pinned
 * to 2026-07-28. Each lists and calls tools, reads a resource, gets a prompt, answers an
 * elicitation with its own handler, sees progress and a tools/list_changed notification.
 */
const run = promisify(execFile);
const WEATHER = `${ROOT}examples/weather/dist/weather.js`;
const WALKTHROUGH = `${ROOT}test/interop/clients/sdk-walkthrough.mjs`;
/** Generous bounds: a walkthrough waits on events (its notification wait is 30 s); these only end a hung one on a busy machine. */
const WALKTHROUGH_MS = 90_000;
const TEST_MS = 100_000;

interface Walkthrough {
  protocolVersion?: string;
  tools: string[];
  current: string;
  resource: string;
  prompt: string;
  forecast: string;
  elicited: string[];
  progress: number[];
  notified: string;
  after: string[];
  failed?: string;
}

async function walkthrough(flavour: string, transport: 'stdio' | 'http', target: string[]): Promise<Walkthrough> {
  const { stdout } = await run(process.execPath, [WALKTHROUGH, flavour, transport, ...target], { cwd: ROOT, timeout: WALKTHROUGH_MS });
  return JSON.parse(stdout) as Walkthrough;
}

const CLIENTS = [
  { flavour: 'v1', era: '2025-11-25' },
  { flavour: 'v2', era: '2025-11-25' },
  { flavour: 'v2-modern', era: '2026-07-28' },
] as const;

let http: Awaited<ReturnType<typeof serveHttpProcess>>;
beforeAll(async () => {
  http = await serveHttpProcess([WEATHER, '--http', '--port', '0']);
});
afterAll(async () => {
  http.child.kill('SIGTERM');
  await http.exited;
});

function expectFullWalkthrough(out: Walkthrough, era: string): void {
  expect(out.failed).toBeUndefined();
  expect(out.protocolVersion).toBe(era);
  expect(out.tools).toEqual(expect.arrayContaining(['weather_current', 'weather_forecast', 'weather_alerts_toggle']));
  expect(out.current).toContain('Current weather in Tokyo');
  expect(JSON.parse(out.resource)).toEqual(['new york', 'london', 'tokyo']);
  expect(out.prompt).toContain('weather report for London');
  expect(out.elicited).toEqual(['How many days of forecast for London?']);
  expect(out.forecast).toBe('Forecast for London:\nDay 1: Light rain, around 14°C\nDay 2: Light rain, around 15°C');
  expect(out.progress.at(-1)).toBe(2);
  expect(out.notified).toBe('tools');
  // The toggle added or removed weather_alerts: the list the client fetched again differs by it.
  expect(out.after.includes('weather_alerts')).toBe(!out.tools.includes('weather_alerts'));
}

describe.each(CLIENTS)('$flavour client ($era)', ({ flavour, era }) => {
  test(
    'over stdio',
    async () => {
      expectFullWalkthrough(await walkthrough(flavour, 'stdio', [process.execPath, MCP_SERVE, WEATHER]), era);
    },
    TEST_MS,
  );

  test(
    'over Streamable HTTP',
    async () => {
      expectFullWalkthrough(await walkthrough(flavour, 'http', [http.url]), era);
    },
    TEST_MS,
  );
});
