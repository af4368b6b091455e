import { jest } from '@jest/globals';
import { InvalidParamsError } from '@decorum/core';
import { McpClient, connect, ConnectionClosedError, RequestTimeoutError, StdioTransport } from '@decorum/client';
import { ROOT, everythingStdio, fixture, weatherStdio } from './support/servers.js';

describe('McpClient over stdio', () => {
  test('modern: the weather example through mcp-serve (discover, lists, call, read, prompt)', async () => {
    // A busy machine can take more than the 5 s default probe to start mcp-serve; that is no legacy server.
    const client = await connect(weatherStdio(), { probeTimeoutMs: 60_000 });
    try {
      expect(client.era).toBe('modern');
      expect(client.serverInfo).toEqual({ name: 'weather', version: '1.0.0' });
      expect(client.instructions).toContain('Current weather');
      const { tools, ttlMs, cacheScope } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['weather_current', 'weather_forecast', 'weather_alerts_toggle']);
      expect({ ttlMs, cacheScope }).toEqual({ ttlMs: 300_000, cacheScope: 'public' });
      const result = await client.callTool('weather_current', { location: 'Tokyo' });
      expect(result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: expect.stringContaining('26°C') }] });
      const read = await client.readResource('weather://cities/London');
      expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ city: 'London' });
      const prompt = await client.getPrompt('weather_report', { location: 'Tokyo' });
      expect(prompt.messages[0].content).toMatchObject({ type: 'text', text: expect.stringContaining('Tokyo') });
      const names: string[] = [];
      for await (const template of client.resourceTemplates()) names.push(template.name);
      expect(names).toEqual(['city']);
      await expect(client.callTool('nope')).rejects.toBeInstanceOf(InvalidParamsError);
    } finally {
      await client.close();
    }
  });

  test('modern over stdio: progress is routed by its token, log lines of a request reach onLog', async () => {
    const logs: unknown[] = [];
    const client = await connect(
      { ...weatherStdio(), args: [weatherStdio().args[0], `${ROOT}examples/everything/dist/everything.js`] },
      { onLog: (params) => logs.push(params) },
    );
    try {
      const progress: Array<{ progress: number; total?: number }> = [];
      await client.callTool('test_tool_with_progress', {}, { onProgress: (p) => progress.push(p) });
      expect(progress.length).toBeGreaterThan(0);
      expect(progress.map((p) => p.progress)).toEqual([...progress.map((p) => p.progress)].sort((a, b) => a - b));
      await client.callTool('test_logging_tool', {}, { logLevel: 'info' });
      expect(logs).toEqual(expect.arrayContaining([expect.objectContaining({ level: 'info', data: expect.anything() })]));
    } finally {
      await client.close();
    }
  });

  test('legacy fallback: server-everything (SDK v1) answers discover with -32601, so the client initializes', async () => {
    const roots = jest.fn(() => [{ uri: 'file:///tmp', name: 'tmp' }]);
    const client = await connect(everythingStdio(), { roots });
    try {
      expect(client.era).toBe('legacy');
      expect(client.view.protocolVersion).toBe('2025-11-25');
      expect(client.serverInfo?.name).toBe('mcp-servers/everything');
      const names: string[] = [];
      for await (const tool of client.tools()) names.push(tool.name);
      expect(names).toEqual(expect.arrayContaining(['echo', 'get-sum']));
      const echo = await client.callTool('echo', { message: 'hi' });
      expect(echo.resultType).toBe('complete');
      expect(echo.content[0]).toEqual({ type: 'text', text: 'Echo: hi' });
      const sum = await client.callTool('get-sum', { a: 2, b: 3 });
      expect(JSON.stringify(sum.content)).toContain('5');
      // The legacy server asks for the client's roots with a server→client request: the same handler answers.
      // (server-everything asks 350 ms after initialized.)
      for (let i = 0; i < 50 && roots.mock.calls.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(roots).toHaveBeenCalled();
      await client.ping();
    } finally {
      await client.close();
    }
  });

  test('modern: the official SDK v2 server', async () => {
    const client = await connect(fixture('sdk-v2-server.mjs'));
    try {
      expect(client.era).toBe('modern');
      expect(client.serverInfo).toMatchObject({ name: 'sdk-v2' });
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['echo']);
      expect((await client.callTool('echo', { text: 'héllo' })).content).toEqual([{ type: 'text', text: 'héllo' }]);
      expect((await client.getPrompt('greet')).messages[0].content).toEqual({ type: 'text', text: 'Hello!' });
    } finally {
      await client.close();
    }
  });

  test('a timeout is a local RequestTimeoutError; the server is told the request is cancelled', async () => {
    let stderr = '';
    const client = await connect({ ...fixture('bad-server.mjs', 'silent-call'), stderr: (text) => (stderr += text) }, { timeoutMs: 300 });
    try {
      await expect(client.callTool('echo', { text: 'x' })).rejects.toBeInstanceOf(RequestTimeoutError);
      for (let i = 0; i < 50 && !stderr.includes('cancelled'); i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(stderr).toMatch(/^cancelled \d+$/m);
      // Still usable afterwards.
      expect((await client.listTools()).tools).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  test('legacy, and the server process restarted: a subscription says `reconnected` and listens again in the new process', async () => {
    const transport = new StdioTransport({ ...everythingStdio(), restart: { retries: 1, delayMs: 50 } });
    const client = await new McpClient(transport, { era: 'legacy' }).connect();
    try {
      const subscription = client.subscribe({ toolsListChanged: true });
      await subscription.acknowledged;
      const events = subscription[Symbol.asyncIterator]();
      const first = transport.pid;
      process.kill(first!, 'SIGKILL');
      // server-everything announces tools/list changes of its own now and then: those pass by.
      let event;
      do event = (await events.next()).value;
      while (event?.type === 'tools/list_changed');
      expect(event).toEqual({ type: 'reconnected' });
      expect(transport.pid).not.toBe(first);
      expect(client.era).toBe('legacy');
      await subscription.close();
    } finally {
      await client.close();
    }
  });

  test('a crash is noticed: requests in flight fail with ConnectionClosedError naming the exit; restart brings it back', async () => {
    const transport = new StdioTransport({ ...fixture('bad-server.mjs', 'crash-on-call'), restart: { retries: 1, delayMs: 50 } });
    const client = await new McpClient(transport).connect();
    try {
      const firstPid = transport.pid;
      const crash = client.callTool('echo', { text: 'x' });
      await expect(crash).rejects.toBeInstanceOf(ConnectionClosedError);
      await expect(crash).rejects.toThrow(/exited \(code 3\).*crashing on purpose/);
      expect((await client.listTools({}, { fresh: true })).tools).toHaveLength(1);
      expect(transport.pid).not.toBe(firstPid);
    } finally {
      await client.close();
    }
  });
});
