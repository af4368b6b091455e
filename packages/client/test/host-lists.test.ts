import { MethodNotFoundError } from '@decorum/core';
import { UnknownTargetError } from '@decorum/client';
import { McpHost } from '@decorum/client/host';
import { WeatherServer } from '../../../examples/weather/src/weather.js';
import { FilesWizard } from '../../../examples/files-wizard/src/wizard.js';

/** Prompts and resources merge and route like tools (in-process servers: no port, no child). */
describe('McpHost: prompts and resources', () => {
  test('merged, namespaced, routed; a server without prompts simply has none', async () => {
    const host = new McpHost();
    await host.connect('weather', { server: [WeatherServer] });
    await host.connect('files', { server: [FilesWizard] });
    try {
      expect((await host.listPrompts()).map((p) => [p.name, p.server, p.originalName])).toEqual([['weather_weather_report', 'weather', 'weather_report']]);
      const prompt = await host.getPrompt('weather_weather_report', { location: 'Tokyo' });
      expect(prompt.messages[0].content).toMatchObject({ type: 'text', text: expect.stringContaining('Tokyo') });
      const resources = await host.listResources();
      expect(resources).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'weather_cities', uri: 'weather://cities', server: 'weather' })]));
      const read = await host.readResource('weather', 'weather://cities');
      expect(JSON.parse((read.contents[0] as { text: string }).text)).toContain('london');
      // Routed to files, which serves no prompts: its own -32601, typed.
      await expect(host.getPrompt('files_weather_report')).rejects.toBeInstanceOf(MethodNotFoundError);
      expect(() => host.client('nowhere')).toThrow(UnknownTargetError);
    } finally {
      await host.close();
    }
  });
});
