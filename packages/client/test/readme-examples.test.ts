// The code blocks of packages/client/README.md, verbatim (test/docs/docs-code.test.ts checks they match):
// type-checked by `npm run typecheck` and run here, so the README cannot rot.
import { connect, createTestClient } from '@decorum/client';
import { McpHost, runAnthropicToolUse, toAnthropicTools } from '@decorum/client/host';
import { WeatherServer } from '../../../examples/weather/src/weather.js';
import { EverythingServer, TaskFixtures } from '../../../examples/everything/src/everything.js';
import { weatherStdio } from './support/servers.js';

const weatherCommand = weatherStdio();

describe('README examples', () => {
  // #region client
  test('one client, any server', async () => {
    const client = await connect(weatherCommand); // { command, args, env } | { url, headers } | { server: [WeatherServer] }
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['weather_current', 'weather_forecast', 'weather_alerts_toggle']);
    const result = await client.callTool('weather_current', { location: 'London' }, { timeoutMs: 5000 });
    expect(result.content[0]).toMatchObject({ type: 'text' });
    await client.close();
  });
  // #endregion

  // #region tasks
  test('a tool that runs as a task, with a question half-way', async () => {
    const client = await createTestClient(TaskFixtures, {
      elicitation: async () => ({ action: 'accept', content: { confirm: true } }),
    });
    const seen: string[] = [];
    const result = await client.callTool('confirm_delete', { filename: 'notes.md' }, { onStatus: (task) => seen.push(task.status) });
    expect(result.content).toEqual([{ type: 'text', text: 'Deleted notes.md' }]);
    expect(seen).toContain('input_required'); // the question, answered by the handler above
    expect(seen.at(-1)).toBe('completed');
    await client.close();
  });
  // #endregion

  // #region test-client
  test('createTestClient: in-process, with MRTR handlers', async () => {
    const client = await createTestClient(EverythingServer, {
      elicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }),
    });
    const result = await client.callTool('test_input_required_result_elicitation');
    expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    await client.close();
  });

  test('createTestClient: subscriptions', async () => {
    const client = await createTestClient(EverythingServer);
    const changes = client.subscribe({ toolsListChanged: true });
    await changes.acknowledged;
    await client.callTool('test_trigger_tool_change');
    for await (const change of changes) {
      expect(change).toEqual({ type: 'tools/list_changed' });
      break; // leaving the loop closes the subscription
    }
    await client.close();
  });
  // #endregion

  // #region host
  test('a host over several servers, for a model', async () => {
    const host = new McpHost({ approve: async (call) => call.annotations?.destructiveHint === false });
    await host.connect('weather', { server: [WeatherServer] }, { trustAnnotations: true }); // ours: its readOnlyHint counts
    const tools = toAnthropicTools(await host.listTools()); // Messages API `tools`
    expect(tools[0]).toMatchObject({ name: 'weather_weather_current', input_schema: { type: 'object' } });
    const answer = await runAnthropicToolUse(host, { type: 'tool_use', id: 'tu_1', name: 'weather_weather_current', input: { location: 'Tokyo' } });
    expect(answer).toMatchObject({ type: 'tool_result', tool_use_id: 'tu_1', content: [{ type: 'text', text: expect.stringContaining('Tokyo') }] });
    await host.close();
  });
  // #endregion
});
