import 'reflect-metadata';
import { McpServer, Tool, image } from '@decorum/core';
import { McpHost, runAnthropicToolUse, runOpenAiToolCall, toAnthropicTools, toOpenAiTools, type HostTool } from '@decorum/client/host';
import { WeatherServer } from '../../../examples/weather/src/weather.js';

@McpServer({ name: 'pics', version: '1.0.0' })
class Pics {
  @Tool({ description: 'A red pixel', input: null, annotations: { readOnlyHint: true } })
  pixel() {
    return { content: [image('iVBORw0KGgo=', 'image/png')] };
  }

  @Tool({ name: 'dotted.name', description: 'A name the model APIs reject', input: null, annotations: { readOnlyHint: true } })
  dotted() {
    return 'dotted';
  }

  @Tool({ description: 'Changes things', input: null })
  change() {
    return 'changed';
  }
}

describe('model adapters', () => {
  let host: McpHost;
  let tools: HostTool[];
  beforeAll(async () => {
    host = new McpHost({ approve: (call) => call.name !== 'change' });
    await host.connect('weather', { server: [WeatherServer] });
    await host.connect('pics', { server: [Pics] });
    tools = await host.listTools();
  });
  afterAll(() => host.close());

  test('Anthropic: tools rendered with input_schema; a name the API rejects is left out and reported', () => {
    const skipped: string[] = [];
    const rendered = toAnthropicTools(tools, (t) => skipped.push(t.name));
    expect(rendered.map((t) => t.name)).toEqual([
      'weather_weather_current',
      'weather_weather_forecast',
      'weather_weather_alerts_toggle',
      'pics_pixel',
      'pics_change',
    ]);
    expect(rendered[0]).toEqual({
      name: 'weather_weather_current',
      description: 'Get current weather information for a location',
      input_schema: tools[0].inputSchema,
    });
    expect(skipped).toEqual(['pics_dotted.name']);
  });

  test('Anthropic: tool_use → routed call → tool_result (text, image, refusal, unknown tool)', async () => {
    expect(await runAnthropicToolUse(host, { type: 'tool_use', id: 'a', name: 'weather_weather_current', input: { location: 'Tokyo' } })).toEqual({
      type: 'tool_result',
      tool_use_id: 'a',
      content: [{ type: 'text', text: expect.stringContaining('Sunny') }],
    });
    expect(await runAnthropicToolUse(host, { type: 'tool_use', id: 'b', name: 'pics_pixel', input: {} })).toEqual({
      type: 'tool_result',
      tool_use_id: 'b',
      content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }],
    });
    expect(await runAnthropicToolUse(host, { type: 'tool_use', id: 'c', name: 'pics_change', input: {} })).toMatchObject({
      tool_use_id: 'c',
      is_error: true,
      content: [{ text: expect.stringContaining('not approved') }],
    });
    expect(await runAnthropicToolUse(host, { type: 'tool_use', id: 'd', name: 'ghost_tool', input: {} })).toMatchObject({
      is_error: true,
      content: [{ text: expect.stringContaining('names no connected server') }],
    });
    expect(await runAnthropicToolUse(host, { type: 'tool_use', id: 'e', name: 'weather_weather_current', input: { location: 'Atlantis' } })).toMatchObject({
      is_error: true,
      content: [{ text: expect.stringContaining('No weather data') }],
    });
  });

  test('OpenAI: function tools, and tool calls answered as tool messages', async () => {
    const rendered = toOpenAiTools(tools);
    expect(rendered[0]).toEqual({
      type: 'function',
      function: { name: 'weather_weather_current', description: 'Get current weather information for a location', parameters: tools[0].inputSchema },
    });
    expect(
      await runOpenAiToolCall(host, { id: 'x', type: 'function', function: { name: 'weather_weather_current', arguments: '{"location":"London"}' } }),
    ).toEqual({
      role: 'tool',
      tool_call_id: 'x',
      content: expect.stringContaining('Light rain'),
    });
    expect(await runOpenAiToolCall(host, { id: 'y', type: 'function', function: { name: 'weather_weather_current', arguments: '{not json' } })).toEqual({
      role: 'tool',
      tool_call_id: 'y',
      content: 'Error: the arguments are not valid JSON',
    });
    expect((await runOpenAiToolCall(host, { id: 'z', type: 'function', function: { name: 'pics_change', arguments: '' } })).content).toMatch(
      /^Error: .*not approved/,
    );
  });
});
