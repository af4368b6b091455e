import { Agent } from 'node:http';
import { McpServer, Tool } from '@decorum/core';
import { Type, type Static } from 'typebox';
import { PROBE_EVERY } from '../src/post-batches.js';
import { startApp, type TestApp } from './support/app.js';
import { body, send, standardHeaders } from './support/http.js';

/** Requests whose headers the HTTP server has read so far (its 'request' event). */
let received = 0;

const Add = Type.Object({ a: Type.Integer(), b: Type.Integer() });

@McpServer({ name: 'batches', version: '1.0.0' })
class BatchServer {
  @Tool({ description: 'How many requests the server had read when this call ran' })
  received(): string {
    return String(received);
  }

  @Tool({ description: 'Adds two integers', input: Add })
  add(args: Static<typeof Add>): string {
    return String(args.a + args.b);
  }

  @Tool({ description: 'Answers after a timer' })
  async later(): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, 2));
    return 'later';
  }
}

/** A tools/call on the agent's kept-alive sockets. */
function call(agent: Agent, url: string, id: number, name: string, args: Record<string, unknown> = {}) {
  const message = body(id, 'tools/call', { name, arguments: args });
  return send(url, { headers: standardHeaders(message), body: JSON.stringify(message), agent });
}

/**
 * Many connections busy at once (post-batches.ts): the endpoint answers a turn's requests together,
 * after the server has read them all, and every request still gets its own answer — results,
 * tool errors, protocol errors and waiting tools alike, on 64 kept-alive connections.
 */
describe('answers in batches over HTTP', () => {
  let t: TestApp;
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  beforeAll(async () => {
    t = await startApp({ servers: [BatchServer] }, (app) => {
      app.server.on('request', () => received++);
    });
  });
  afterAll(async () => {
    agent.destroy();
    await t.close();
  });

  test('a turn’s calls run after all of its requests were read, each answered as its own', async () => {
    let shared = 0;
    for (let round = 0; round < 8 && shared < 4; round++) {
      const answers = await Promise.all(Array.from({ length: 64 }, (_, i) => call(agent, t.url, round * 100 + i, 'received')));
      const counts = new Map<string, number>();
      for (const [i, answer] of answers.entries()) {
        expect(answer.status).toBe(200);
        expect(answer.json.id).toBe(round * 100 + i);
        const seen = answer.json.result.content[0].text as string;
        counts.set(seen, (counts.get(seen) ?? 0) + 1);
      }
      // Answered one by one, each call would see its own count; in a batch, its calls see the same.
      shared = Math.max(shared, ...counts.values());
    }
    expect(received).toBeGreaterThan(PROBE_EVERY);
    expect(shared).toBeGreaterThanOrEqual(4);
  });

  test('in a batch, every kind of answer reaches its own request', async () => {
    for (let round = 0; round < 4; round++) {
      const requests = Array.from({ length: 64 }, (_, i) => {
        const id = 1000 + round * 100 + i;
        switch (i % 5) {
          case 0:
            return call(agent, t.url, id, 'add', { a: i, b: round }).then((a) => {
              expect(a.json).toMatchObject({ id, result: { content: [{ type: 'text', text: String(i + round) }] } });
            });
          case 1: // invalid arguments: a tool error result, still 200
            return call(agent, t.url, id, 'add', { a: 'one', b: 2 }).then((a) => {
              expect(a.status).toBe(200);
              expect(a.json).toMatchObject({ id, result: { isError: true } });
            });
          case 2: // unknown tool: -32602 for this id
            return call(agent, t.url, id, 'nope').then((a) => expect(a.json).toMatchObject({ id, error: { code: -32602 } }));
          case 3: // malformed JSON: -32700, 400
            return send(t.url, {
              headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
              body: `{"jsonrpc":"2.0","id":${id},`,
              agent,
            }).then((a) => {
              expect(a.status).toBe(400);
              expect(a.json.error.code).toBe(-32700);
            });
          default: // a tool that waits: answered once its promise settles
            return call(agent, t.url, id, 'later').then((a) => expect(a.json).toMatchObject({ id, result: { content: [{ text: 'later' }] } }));
        }
      });
      await Promise.all(requests);
    }
  });
});
