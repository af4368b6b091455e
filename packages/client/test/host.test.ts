import { jest } from '@jest/globals';
import { CallRefusedError, ClientUsageError, ConnectionClosedError, StdioTransport, UnknownTargetError } from '@decorum/client';
import { McpHost, type ToolCall } from '@decorum/client/host';
import { EverythingServer } from '../../../examples/everything/src/everything.js';
import { FilesWizard } from '../../../examples/files-wizard/src/wizard.js';
import { until } from '@decorum-internal/test-support';
import { everythingStdio, fixture, serveHttp, weatherStdio, type HttpServer } from './support/servers.js';

const text = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

/**
 * The host against two of our servers (weather over stdio through mcp-serve; files-wizard plus
 * the everything example over HTTP) and the official server-everything (SDK v1, legacy, stdio).
 */
describe('McpHost over three servers', () => {
  let http: HttpServer;
  let host: McpHost;
  const asked: ToolCall[] = [];
  let answer = false;
  const warnings: string[] = [];

  beforeAll(async () => {
    http = await serveHttp({ servers: [FilesWizard, EverythingServer], cache: { lists: { ttlMs: 400, cacheScope: 'public' } } });
    host = new McpHost({
      approve: (call) => {
        asked.push(call);
        return answer;
      },
      elicitation: async () => ({ action: 'accept', content: { confirm: true } }),
      roots: () => [],
      onWarning: (w) => warnings.push(w),
    });
    // The test's own servers: their annotations are trusted (mimic's are not).
    await host.connect('weather', weatherStdio(), { trustAnnotations: true });
    await host.connect('files', { url: http.url }, { trustAnnotations: true });
    await host.connect('everything', everythingStdio(), { trustAnnotations: true });
    await host.connect('mimic', fixture('bad-server.mjs', 'well-behaved', 'echo'));
  });
  afterAll(async () => {
    await host.close();
    await http.close();
  });

  test('one merged list, namespaced <server>_<tool>; the same tool name on two servers stays apart', async () => {
    const tools = await host.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['weather_weather_current', 'files_list_files', 'files_delete_file', 'everything_echo', 'everything_get-sum', 'mimic_echo']),
    );
    expect(new Set(names).size).toBe(names.length);
    expect(tools.find((t) => t.name === 'mimic_echo')).toMatchObject({ server: 'mimic', originalName: 'echo' });
    expect(host.status().map((s) => [s.name, s.state, s.era])).toEqual([
      ['weather', 'connected', 'modern'],
      ['files', 'connected', 'modern'],
      ['everything', 'connected', 'legacy'],
      ['mimic', 'connected', 'modern'],
    ]);
  });

  test('calls are routed by the first "_"; read-only calls of trusted servers skip approve', async () => {
    asked.length = 0;
    expect(text(await host.callTool('weather_weather_current', { location: 'Tokyo' }))).toContain('26°C');
    expect(asked).toEqual([]);
    expect(text(await host.callTool('everything_echo', { message: 'hi' }))).toBe('Echo: hi');
    // Not read-only by its annotations: approve is asked.
    answer = true;
    expect(text(await host.callTool('mimic_echo', { text: 'from mimic' }))).toBe('from mimic');
    expect(asked.map((c) => c.tool)).toEqual(['mimic_echo']);
    await expect(host.callTool('nowhere_echo')).rejects.toBeInstanceOf(UnknownTargetError);
    await expect(host.callTool('weather_nope')).rejects.toThrow(/Server weather lists no tool "nope"/);
  });

  test('approval: a refusal never reaches the server; a grant goes through (MRTR included)', async () => {
    answer = false;
    asked.length = 0;
    await expect(host.callTool('files_delete_file', { path: '/notes/ideas.md' })).rejects.toBeInstanceOf(CallRefusedError);
    expect(asked).toEqual([
      expect.objectContaining({
        server: 'files',
        tool: 'files_delete_file',
        name: 'delete_file',
        arguments: { path: '/notes/ideas.md' },
        annotations: { destructiveHint: true },
      }),
    ]);
    expect(text(await host.callTool('files_list_files'))).toContain('/notes/ideas.md');
    answer = true;
    expect(text(await host.callTool('files_delete_file', { path: '/notes/ideas.md' }))).toBe('Deleted /notes/ideas.md.');
    expect(text(await host.callTool('files_list_files'))).not.toContain('/notes/ideas.md');
    // No hook at all: refused, never sent.
    const bare = new McpHost();
    await bare.connect('files', { url: http.url });
    await expect(bare.callTool('files_delete_file', { path: '/x' })).rejects.toThrow(/no approve hook.*not sent to the server/);
    await bare.close();
  });

  test('freshness: a list is reused within its ttlMs, fetched again after it', async () => {
    const client = host.client('files');
    const spy = jest.spyOn(client.transport, 'request');
    await host.listTools();
    await host.listTools();
    const lists = () => spy.mock.calls.filter(([r]) => r.method === 'tools/list').length;
    expect(lists()).toBeLessThanOrEqual(1);
    const before = lists();
    await new Promise((resolve) => setTimeout(resolve, 450));
    await host.listTools();
    expect(lists()).toBe(before + 1);
    spy.mockRestore();
  });

  test('list-changed invalidates at once: within a ttlMs of an hour, the list is fetched again after the notification only', async () => {
    const hourly = await serveHttp({ servers: [EverythingServer], cache: { lists: { ttlMs: 3_600_000, cacheScope: 'public' } } });
    const watching = new McpHost({ approve: () => true });
    try {
      await watching.connect('live', { url: hourly.url });
      const client = watching.client('live');
      const spy = jest.spyOn(client.transport, 'request');
      const lists = () => spy.mock.calls.filter(([r]) => r.method === 'tools/list').length;
      // The host's listen stream is acknowledged: the notification cannot pass unseen.
      await until('the server is watched', () => watching.status()[0].watching);
      const before = (await watching.listTools()).map((t) => t.name);
      await watching.listTools();
      expect(lists()).toBe(1);
      const changed = new Promise<void>((resolve) => {
        const off = client.onChange(() => (off(), resolve()));
      });
      await watching.callTool('live_test_trigger_tool_change');
      await changed;
      const after = (await watching.listTools()).map((t) => t.name);
      expect(lists()).toBe(2);
      expect(after.includes('live_test_added_tool')).toBe(!before.includes('live_test_added_tool'));
    } finally {
      await watching.close();
      await hourly.close();
    }
  });

  test('names: a server cannot be named with "_", and a tool name cannot route to another server', async () => {
    await expect(host.connect('weather_2', weatherStdio())).rejects.toBeInstanceOf(ClientUsageError);
    await host.connect('evil', fixture('bad-server.mjs', 'well-behaved', 'weather_weather_current'));
    const names = (await host.listTools()).map((t) => t.name);
    expect(names).toContain('evil_weather_weather_current');
    // The name the evil tool imitates still routes to the weather server.
    expect(text(await host.callTool('weather_weather_current', { location: 'London' }))).toContain('Light rain');
    answer = true;
    expect(text(await host.callTool('evil_weather_weather_current', { text: 'evil' }))).toBe('evil');
    await host.disconnect('evil');
  });

  test('one server killed mid-run: the others keep serving', async () => {
    const transport = host.client('weather').transport as StdioTransport;
    process.kill(transport.pid!, 'SIGKILL');
    for (let i = 0; i < 50 && host.status()[0].state === 'connected'; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(host.status()[0]).toMatchObject({ name: 'weather', state: 'failed', error: expect.any(ConnectionClosedError) });
    const names = (await host.listTools()).map((t) => t.name);
    expect(names).not.toContain('weather_weather_current');
    expect(names).toEqual(expect.arrayContaining(['files_list_files', 'everything_echo']));
    await expect(host.callTool('weather_weather_current', { location: 'Tokyo' })).rejects.toBeInstanceOf(ConnectionClosedError);
    expect(text(await host.callTool('everything_echo', { message: 'still here' }))).toBe('Echo: still here');
    expect(warnings.some((w) => w.includes('Server weather is gone'))).toBe(true);
  });
});
