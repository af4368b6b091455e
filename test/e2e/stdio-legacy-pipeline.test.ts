import { legacyCall, openLegacySession, StdioProcess } from '@decorum-internal/test-support';

/**
 * The request pipeline on a legacy (2025-06-18) stdio session, through a real mcp-serve process:
 * middleware sees the legacy request and can answer itself, a guard refuses, the rate limiter
 * holds its bound under 200 concurrent calls — each answered clearly, and the process keeps serving.
 */
describe('request pipeline on a legacy stdio session', () => {
  let server: StdioProcess;
  beforeAll(async () => {
    server = StdioProcess.serve('test/fixtures/legacy-pipeline-server.ts');
    await openLegacySession(server, {}, '2025-06-18');
  });
  afterAll(async () => {
    server.child.stdin.end();
    await server.exit();
  });

  test('middleware sees the legacy request (its revision and _meta) around the handler', async () => {
    const answer = await server.request(legacyCall(1, 'echo', {}, 'p-1'));
    expect(answer.result).toEqual({
      content: [
        { type: 'text', text: 'handler ran' },
        { type: 'text', text: 'middleware saw tools/call echo (2025-06-18, progressToken p-1)' },
      ],
      isError: false,
    });
  });

  test('middleware (option form and @Use) can answer without the handler; the answer is legacy-shaped', async () => {
    expect((await server.request(legacyCall(2, 'echo', { answerEarly: true }))).result).toEqual({
      content: [{ type: 'text', text: 'answered by middleware (2025-06-18)' }],
    });
    const short = await server.request(legacyCall(3, 'short'));
    expect(short.result.content).toEqual([
      { type: 'text', text: 'short-circuited by @Use' },
      { type: 'text', text: 'middleware saw tools/call short (2025-06-18, progressToken undefined)' },
    ]);
    expect(short.result).not.toHaveProperty('resultType');
  });

  test('a guard refusal is -31403 naming the guard; an allowed call goes through', async () => {
    const refused = await server.request(legacyCall(4, 'lookup', { topic: 'secret' }));
    expect(refused.error).toEqual({ code: -31403, message: 'Forbidden: tools/call "lookup" was refused by guard "noSecrets"', data: { guard: 'noSecrets' } });
    expect((await server.request(legacyCall(5, 'lookup', { topic: 'cats' }))).result.content[0].text).toBe('about cats');
  });

  test('the limiter at its bound under 200 concurrent calls: -31429 with retryAfterMs for each call over, and serving goes on', async () => {
    const ids = Array.from({ length: 200 }, (_, i) => `burst-${i}`);
    for (const id of ids) server.send(legacyCall(id, 'limited'));
    const answers = await Promise.all(ids.map((id) => server.waitFor((m) => m.id === id, 15_000)));
    const limited = answers.filter((a) => a.error);
    expect(answers.filter((a) => a.result)).toHaveLength(50);
    expect(limited).toHaveLength(150);
    for (const answer of limited) {
      expect(answer.error).toMatchObject({ code: -31429, data: { retryAfterMs: expect.any(Number), limit: 50, windowMs: 60_000 } });
      expect(answer.error.message).toContain('Rate limit exceeded: 50 calls per 60000 ms of tools/call "limited" per caller');
    }
    expect((await server.request({ jsonrpc: '2.0', id: 'after-burst', method: 'ping' })).result).toEqual({});
    expect((await server.request(legacyCall('after-burst-2', 'echo'))).result.content[0].text).toBe('handler ran');
  });
});
