import { MessageTooLargeError, ProtocolViolationError, RequestTimeoutError } from '@decorum/client';
import { McpHost } from '@decorum/client/host';
import { fixture, weatherStdio } from './support/servers.js';

const text = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

/** Each bad server gets a clear error; the host keeps serving the good one. */
describe('bad servers behind one host', () => {
  let host: McpHost;
  const warnings: string[] = [];
  beforeAll(async () => {
    host = new McpHost({ approve: () => true, timeoutMs: 3000, listTimeoutMs: 2000, onWarning: (w) => warnings.push(w) });
    await host.connect('weather', weatherStdio());
  });
  afterAll(() => host.close());

  const stillServing = async () => expect(text(await host.callTool('weather_weather_current', { location: 'Tokyo' }))).toContain('26°C');

  test('garbage on stdout: a ProtocolViolationError that quotes the line; that server is stopped', async () => {
    await host.connect('garbage', fixture('bad-server.mjs', 'garbage'));
    const call = host.callTool('garbage_echo', { text: 'x' });
    await expect(call).rejects.toBeInstanceOf(ProtocolViolationError);
    await expect(call).rejects.toThrow(/not JSON: "Listening on port 8080/);
    for (let i = 0; i < 50 && host.status().find((s) => s.name === 'garbage')!.state === 'connected'; i++) await new Promise((r) => setTimeout(r, 20));
    expect(host.status().find((s) => s.name === 'garbage')).toMatchObject({ state: 'failed' });
    await stillServing();
  });

  test('never answers: connect fails with a timeout naming initialize after the discover probe', async () => {
    await expect(host.connect('silent', fixture('bad-server.mjs', 'silent'), { probeTimeoutMs: 300, timeoutMs: 500 })).rejects.toMatchObject({
      constructor: RequestTimeoutError,
      method: 'initialize',
    });
    expect(host.status().map((s) => s.name)).not.toContain('silent');
    await stillServing();
  });

  test('answers with a wrong id: a ProtocolViolationError naming the id', async () => {
    await host.connect('wrongid', fixture('bad-server.mjs', 'wrong-id'));
    await expect(host.callTool('wrongid_echo', { text: 'x' })).rejects.toThrow(ProtocolViolationError);
    await expect(
      host
        .client('wrongid')
        .callTool('echo')
        .catch((e: Error) => e.message),
    ).resolves.toMatch(/not running|closed|987654/);
    await stillServing();
  });

  test('a 50 MB answer: MessageTooLargeError at the size limit; the server keeps serving smaller answers', async () => {
    await host.connect('huge', fixture('bad-server.mjs', 'huge'), { maxMessageBytes: 1024 * 1024 });
    await expect(host.callTool('huge_echo', { text: 'x' })).rejects.toBeInstanceOf(MessageTooLargeError);
    expect((await host.client('huge').listTools({}, { fresh: true })).tools).toHaveLength(1);
    await stillServing();
  });

  test('one server never answering a call does not hold up the others', async () => {
    await host.connect('stuck', fixture('bad-server.mjs', 'silent-call'), { timeoutMs: 1000 });
    const stuck = host.callTool('stuck_echo', { text: 'x' });
    await stillServing();
    await expect(stuck).rejects.toBeInstanceOf(RequestTimeoutError);
    const names = (await host.listTools()).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['weather_weather_current', 'stuck_echo', 'huge_echo']));
  });

  test('one server never answering tools/list is left out of the merged list after listTimeoutMs, its request cancelled; the others are listed', async () => {
    let stderr = '';
    let cancelled!: () => void;
    const cancelledSeen = new Promise<void>((resolve) => (cancelled = resolve));
    // The request timeout (60 s) is far beyond the test's: only the host's list timeout can end the wait.
    await host.connect(
      'hung',
      { ...fixture('bad-server.mjs', 'silent-list'), stderr: (text) => ((stderr += text), /cancelled \d+/.test(stderr) && cancelled()) },
      { timeoutMs: 60_000 },
    );
    try {
      const names = (await host.listTools()).map((t) => t.name);
      expect(names).toContain('weather_weather_current');
      expect(names.some((n) => n.startsWith('hung_'))).toBe(false);
      expect(warnings).toContainEqual(expect.stringMatching(/^Server hung could not list: The server did not answer tools\/list within 2000 ms/));
      expect(host.status().find((s) => s.name === 'hung')).toMatchObject({ state: 'connected', error: expect.any(RequestTimeoutError) });
      await cancelledSeen;
      await stillServing();
    } finally {
      await host.disconnect('hung');
    }
  });
});
