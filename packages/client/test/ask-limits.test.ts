import 'reflect-metadata';
import { AskLimitError, McpClient, type CallToolResult, type InputHandlers } from '@decorum/client';
import { McpServer, Tool, type ToolContext } from '@decorum/core';
import { DEFAULT_ASK_LIMITS } from '../src/ask-limits.js';
import { Type, type Static } from 'typebox';
import { FIXTURES, ROOT, fixture, serveHttp, type HttpServer } from './support/servers.js';

const SAMPLE = { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 1 } };
const summary = (result: CallToolResult) => JSON.parse((result.content[0] as { text: string }).text) as { results: number; errors: Record<string, number> };

/** A sampling handler that takes a while (a model call), counting its runs and how many ran at once. */
function countingSampler(delayMs = 5) {
  const seen = { runs: 0, running: 0, mostAtOnce: 0 };
  const sampling: InputHandlers['sampling'] = async () => {
    seen.runs++;
    seen.mostAtOnce = Math.max(seen.mostAtOnce, ++seen.running);
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    seen.running--;
    return { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'test-model' };
  };
  return { seen, sampling };
}

describe('ask limits: a legacy server flooding the client with requests over stdio', () => {
  test('10,000 sampling requests run the handler at most maxAsksPerMinute times, maxConcurrentAsks at once; the rest are refused with -31429 naming the limit', async () => {
    const { seen, sampling } = countingSampler();
    const client = await McpClient.connect(fixture('hostile-asker.mjs'), { sampling });
    try {
      const { results, errors } = summary(await client.callTool('ask', { ...SAMPLE, count: 10_000 }));
      expect(seen.runs).toBeGreaterThan(0);
      expect(seen.runs).toBeLessThanOrEqual(DEFAULT_ASK_LIMITS.maxAsksPerMinute);
      expect(seen.mostAtOnce).toBeLessThanOrEqual(DEFAULT_ASK_LIMITS.maxConcurrentAsks);
      expect(results).toBe(seen.runs);
      expect(Object.values(errors).reduce((a, b) => a + b, 0)).toBe(10_000 - seen.runs);
      expect(Object.keys(errors)).toContain(
        "-31429 The server asked for sampling/createMessage past the client's limit maxConcurrentAsks (4); refused before any handler ran (raise maxConcurrentAsks for a server you trust)",
      );
      for (const refusal of Object.keys(errors))
        expect(refusal).toMatch(
          /^-31429 The server asked for sampling\/createMessage past the client's limit (maxConcurrentAsks \(4\)|maxAsksPerMinute \(60\))/,
        );
    } finally {
      await client.close();
    }
  });

  test('the limits are options: maxConcurrentAsks 1 and maxAsksPerMinute 3 let three asks through, one at a time', async () => {
    const { seen, sampling } = countingSampler();
    const client = await McpClient.connect(fixture('hostile-asker.mjs'), { sampling, maxConcurrentAsks: 1, maxAsksPerMinute: 3 });
    try {
      let answered = 0;
      // One ask per call: never two at once, so only the per-minute budget refuses.
      for (let i = 0; i < 5; i++) answered += summary(await client.callTool('ask', { ...SAMPLE, count: 1 })).results;
      expect(answered).toBe(3);
      expect(seen.runs).toBe(3);
      const { errors } = summary(await client.callTool('ask', { ...SAMPLE, count: 2 }));
      expect(Object.keys(errors)).toEqual([expect.stringMatching(/^-31429 .* past the client's limit (maxConcurrentAsks \(1\)|maxAsksPerMinute \(3\))/)]);
      expect(seen.mostAtOnce).toBe(1);
    } finally {
      await client.close();
    }
  });
});

describe('ask limits: a Decorum server whose tool asks too much, in a legacy session over stdio', () => {
  test('20 samples at once: maxConcurrentAsks run at once, the rest are refused and the tool hears why', async () => {
    // Slow answers: all 20 requests arrive while the first 4 are still running.
    const { seen, sampling } = countingSampler(300);
    const client = await McpClient.connect(
      {
        command: process.execPath,
        args: [`${ROOT}packages/cli/dist/bin.js`, `${FIXTURES}greedy-server.ts`],
        env: { DECORUM_LOG_LEVEL: 'warn' },
        stderr: 'ignore',
      },
      { sampling, era: 'legacy' },
    );
    try {
      expect(client.era).toBe('legacy');
      const { answered, refusals } = JSON.parse(((await client.callTool('sample_many', { count: 20 })).content[0] as { text: string }).text);
      expect(answered).toBe(seen.runs);
      expect(seen.runs).toBeLessThan(20);
      expect(seen.mostAtOnce).toBe(DEFAULT_ASK_LIMITS.maxConcurrentAsks);
      expect(refusals).toEqual([expect.stringContaining("-31429: The server asked for sampling/createMessage past the client's limit maxConcurrentAsks (4)")]);
    } finally {
      await client.close();
    }
  });
});

const Count = Type.Object({ count: Type.Integer({ minimum: 1 }) });
const QUESTION = { message: 'Go on?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } } as const;

@McpServer({ name: 'greedy', version: '1.0.0' })
class GreedyServer {
  @Tool({ description: 'Asks count questions in one round', input: Count })
  async at_once(args: Static<typeof Count>, ctx: ToolContext) {
    await Promise.all(Array.from({ length: args.count }, () => ctx.elicit(QUESTION)));
    return `${args.count} answers`;
  }

  @Tool({ description: 'Asks count questions, one round each', input: Count })
  async one_by_one(args: Static<typeof Count>, ctx: ToolContext) {
    for (let i = 0; i < args.count; i++) await ctx.elicit(QUESTION);
    return `${args.count} answers`;
  }
}

describe('ask limits: a modern server asking too much in input_required rounds over HTTP', () => {
  let http: HttpServer;
  let asked = 0;
  const elicitation: InputHandlers['elicitation'] = () => (asked++, { action: 'decline' });
  beforeAll(async () => (http = await serveHttp({ servers: [GreedyServer] })));
  afterAll(() => http.close());
  beforeEach(() => (asked = 0));

  test('2,000 inputRequests in one round: callTool fails with AskLimitError naming maxInputRequestsPerRound; no handler ran', async () => {
    const client = await McpClient.connect({ url: http.url }, { elicitation });
    try {
      const call = client.callTool('at_once', { count: 2000 });
      await expect(call).rejects.toBeInstanceOf(AskLimitError);
      await expect(call).rejects.toMatchObject({
        code: 'DECORUM_ERR_ASK_LIMIT',
        limit: 'maxInputRequestsPerRound',
        max: 16,
        message:
          "The server asked for 2000 inputs in one round of tools/call past the client's limit maxInputRequestsPerRound (16); refused before any handler ran (raise maxInputRequestsPerRound for a server you trust)",
      });
      expect(asked).toBe(0);
      // Within the limit the same tool is answered.
      expect((await client.callTool('at_once', { count: 16 })).content).toEqual([{ type: 'text', text: '16 answers' }]);
      expect(asked).toBe(16);
    } finally {
      await client.close();
    }
  });

  test('one ask per round, round after round: maxAsksPerCall ends the call once the asks of one call pass it', async () => {
    const client = await McpClient.connect({ url: http.url }, { elicitation, maxInputRounds: 1000 });
    try {
      await expect(client.callTool('one_by_one', { count: 100 })).rejects.toMatchObject({ code: 'DECORUM_ERR_ASK_LIMIT', limit: 'maxAsksPerCall', max: 32 });
      expect(asked).toBe(32);
    } finally {
      await client.close();
    }
  });

  test('asks over several calls: maxAsksPerMinute bounds the server across calls; raised, the same asks pass', async () => {
    const tight = await McpClient.connect({ url: http.url }, { elicitation, maxAsksPerMinute: 10 });
    const roomy = await McpClient.connect({ url: http.url }, { elicitation, maxAsksPerMinute: 100, maxInputRequestsPerRound: 40, maxAsksPerCall: 40 });
    try {
      expect((await tight.callTool('at_once', { count: 6 })).content).toEqual([{ type: 'text', text: '6 answers' }]);
      await expect(tight.callTool('at_once', { count: 6 })).rejects.toMatchObject({ limit: 'maxAsksPerMinute', max: 10 });
      expect(asked).toBe(6);
      expect((await roomy.callTool('at_once', { count: 40 })).content).toEqual([{ type: 'text', text: '40 answers' }]);
      expect(asked).toBe(46);
    } finally {
      await Promise.all([tight.close(), roomy.close()]);
    }
  });

  test('a round larger than maxConcurrentAsks waits for free slots instead of failing', async () => {
    let running = 0;
    let mostAtOnce = 0;
    const slow: InputHandlers['elicitation'] = async () => {
      mostAtOnce = Math.max(mostAtOnce, ++running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
      return { action: 'decline' };
    };
    const client = await McpClient.connect({ url: http.url }, { elicitation: slow, maxConcurrentAsks: 2 });
    try {
      expect((await client.callTool('at_once', { count: 8 })).content).toEqual([{ type: 'text', text: '8 answers' }]);
      expect(mostAtOnce).toBe(2);
    } finally {
      await client.close();
    }
  });
});
