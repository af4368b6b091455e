// Hardening bug (#48): a legacy session kept every streamed event for Last-Event-ID replay, so 16
// streamed 3 MB answers held ~50–70 MiB per session even when fully read. The events a session
// keeps are now bounded in bytes and count across its streams; a later Last-Event-ID lets the
// events up to it go; a Last-Event-ID before what is kept gets 404 (as a stream no longer kept
// does), never a replay with a hole. Real HTTP: an mcp-serve child (heap) and Fastify on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { McpPluginOptions } from '@decorum/fastify';
import { serveHttpProcess } from '../../packages/fastify/test/support/cli-process.js';
import { startApp, type TestApp } from '../../packages/fastify/test/support/app.js';
import { send, type HttpResult } from '../../packages/fastify/test/support/http.js';
import { initializeSession, legacyPost, legacyToolCall } from '../../packages/fastify/test/support/legacy-client.js';
import { LegacyReplay } from './fixtures/legacy-replay-server.js';

const MiB = 1024 * 1024;

/** A `sized` call whose answer streams (progress first, so the POST's SSE stream opens). */
const streamed = (url: string, session: string, id: number, bytes: number, steps = 1): Promise<HttpResult> =>
  legacyPost(url, legacyToolCall(id, 'sized', { bytes, steps }, { progressToken: `p${id}` }), { 'mcp-session-id': session });

/** The event ids of a complete SSE body, in order (the priming one first). */
const eventIds = (res: HttpResult): string[] => [...res.text.matchAll(/^id: (\S+)$/gm)].map((m) => m[1]);

const resume = (url: string, session: string, lastEventId: string): Promise<HttpResult> =>
  send(url, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'last-event-id': lastEventId } });

test('16 streamed 3 MB answers, fully read, leave a session holding no more than the window (4 MiB by default)', async () => {
  const served = await serveHttpProcess(['test/hardening/fixtures/legacy-replay-server.ts', '--http', '--port', '0'], {}, 25_000, ['--expose-gc']);
  try {
    const { id: session } = await initializeSession(served.url);
    const heap = async (id: number) =>
      Number((await legacyPost(served.url, legacyToolCall(id, 'heap'), { 'mcp-session-id': session, accept: 'application/json' })).json.result.content[0].text);
    // One streamed call first, so that what every call allocates once is in the baseline.
    expect((await streamed(served.url, session, 1, 1024)).status).toBe(200);
    const before = await heap(2);
    for (let id = 10; id < 26; id++) {
      const res = await streamed(served.url, session, id, 3 * MiB);
      expect(res.headers['content-type']).toBe('text/event-stream');
      expect(res.events.at(-1).result.content[0].text).toHaveLength(3 * MiB);
    }
    const grown = (await heap(3)) - before;
    // Unbounded, the 16 answers stayed (≥ 48 MiB); bounded, about one answer is kept.
    expect(grown).toBeLessThan(12 * MiB);
  } finally {
    served.child.kill('SIGKILL');
  }
});

describe('the replay window of a legacy session', () => {
  const apps: TestApp[] = [];
  const serve = async (legacySessions: McpPluginOptions['legacySessions']) => {
    const app = await startApp({ servers: [LegacyReplay], legacySessions });
    apps.push(app);
    return app;
  };
  let t: TestApp;
  beforeAll(async () => (t = await serve({ replayBytes: 64 * 1024 })));
  afterAll(() => Promise.all(apps.map((app) => app.close())));

  test('inside the window a stream resumes with what came after Last-Event-ID; the events it acknowledges are let go', async () => {
    const { id: session } = await initializeSession(t.url);
    const first = await streamed(t.url, session, 1, 100, 3);
    const [priming, progress1] = eventIds(first);
    const resumed = await resume(t.url, session, progress1);
    expect(resumed.status).toBe(200);
    expect(resumed.events).toEqual([...first.events.slice(1)]);
    // Last-Event-ID said the client has everything up to progress 1: a resumption before it is refused.
    const older = await resume(t.url, session, priming);
    expect(older.status).toBe(404);
    expect(older.json.error.message).toBe(
      'Not Found: events after Last-Event-ID are no longer kept (acknowledged, or beyond legacySessions.replayBytes/replayEvents); open the GET stream without it',
    );
    // What is still kept can still be resumed.
    expect((await resume(t.url, session, progress1)).events).toEqual(first.events.slice(1));
  });

  test('beyond replayBytes the oldest events go, whatever their stream: resuming them → 404, the newer stream still resumes', async () => {
    const { id: session } = await initializeSession(t.url);
    const older = await streamed(t.url, session, 1, 40_000);
    const newer = await streamed(t.url, session, 2, 40_000);
    const gone = await resume(t.url, session, eventIds(older)[0]);
    expect(gone.status).toBe(404);
    expect(gone.json.error.message).toMatch(/no longer kept \(acknowledged, or beyond legacySessions\.replayBytes\/replayEvents\)/);
    const kept = await resume(t.url, session, eventIds(newer)[0]);
    expect(kept.status).toBe(200);
    expect(kept.events).toEqual(newer.events);
  });

  test('an event larger than replayBytes is sent but not kept: its stream cannot be resumed before it', async () => {
    const { id: session } = await initializeSession(t.url);
    const large = await streamed(t.url, session, 1, 100_000);
    expect(large.events.at(-1).result.content[0].text).toHaveLength(100_000);
    const [, progress] = eventIds(large);
    expect((await resume(t.url, session, progress)).status).toBe(404);
  });

  test('beyond replayEvents the oldest events go', async () => {
    const counted = await serve({ replayEvents: 3 });
    const { id: session } = await initializeSession(counted.url);
    // Progress 1–5, then the answer: the last three events are kept.
    const call = await streamed(counted.url, session, 1, 10, 5);
    const ids = eventIds(call);
    expect((await resume(counted.url, session, ids[2])).status).toBe(404);
    const resumed = await resume(counted.url, session, ids[3]);
    expect(resumed.status).toBe(200);
    expect(resumed.events).toEqual(call.events.slice(3));
  });

  test('replayBytes and replayEvents must be positive integers (start-up error)', async () => {
    await expect(serve({ replayBytes: 0 })).rejects.toMatchObject({
      code: 'DECORUM_ERR_INVALID_NUMBER',
      message: 'DECORUM_ERR_INVALID_NUMBER: mcpPlugin: legacySessions.replayBytes must be a positive integer (got 0)',
    });
    await expect(serve({ replayEvents: 1.5 })).rejects.toMatchObject({
      code: 'DECORUM_ERR_INVALID_NUMBER',
      message: 'DECORUM_ERR_INVALID_NUMBER: mcpPlugin: legacySessions.replayEvents must be a positive integer (got 1.5)',
    });
  });
});
