import 'reflect-metadata';
import { McpServer, Tool, UserError, type JsonRpcRequest } from '@decorum/core';
import { preloadValidators } from '@decorum/core/transport';
import { request } from '@decorum-internal/test-support';
import { Type } from 'typebox';
import type { AskingCall, AskTarget } from '../src/asks/handler-asks.js';
import { mrtrSeam } from '../src/asks/mrtr/mrtr-seam.js';
import { SessionAskSeam } from '../src/asks/session/session-asks.js';
import { capturingLogger, harness } from './support/engine-harness.js';

// A synchronous tool is answered without waiting on promises of the engine's own: the seam, the
// method and `execute` continue at once when a step answers synchronously (each promise, frame
// and microtask turn was a measurable share of a tools/call in the bench).

const Add = Type.Object({ a: Type.Integer(), b: Type.Integer() });

@McpServer({ name: 'sync', version: '1.0.0' })
class SyncServer {
  @Tool({ description: 'Adds', input: Add })
  add(args: { a: number; b: number }): string {
    return String(args.a + args.b);
  }

  @Tool({ description: 'Refuses', input: Add })
  refuse(): string {
    throw new UserError('no');
  }

  @Tool({ description: 'Adds later', input: Add })
  async addLater(args: { a: number; b: number }): Promise<string> {
    await new Promise((resolve) => setImmediate(resolve));
    return String(args.a + args.b);
  }
}

/** How many microtask turns pass before `promise` settles (the count stops at 20). */
async function turnsUntilSettled(promise: Promise<unknown>): Promise<number> {
  let settled = false;
  void promise.then(() => (settled = true));
  for (let turns = 0; turns < 20; turns++) {
    if (settled) return turns;
    await Promise.resolve();
  }
  return 20;
}

function execute(server: ReturnType<typeof harness>['server'], message: JsonRpcRequest) {
  // As a transport that needs a promise wraps the engine's answer at its edge.
  return Promise.resolve(server.engine.answerRequest(message, { notify: () => {} }));
}

describe('synchronous answers', () => {
  const { server } = harness([SyncServer]);
  // TypeBox's compiler is loaded on first use (a promise); servers preload it at start-up.
  beforeAll(() => preloadValidators());

  test('a synchronous tool: execute has settled after one microtask turn, with the right answer', async () => {
    const answer = execute(server, request(1, 'tools/call', { name: 'add', arguments: { a: 20, b: 22 } }) as JsonRpcRequest);
    expect(await turnsUntilSettled(answer)).toBeLessThanOrEqual(1);
    expect(await answer).toMatchObject({ id: 1, result: { resultType: 'complete', content: [{ type: 'text', text: '42' }], isError: false } });
  });

  test('a synchronous tool that throws a UserError: also at once, as an isError result', async () => {
    const answer = execute(server, request(2, 'tools/call', { name: 'refuse', arguments: { a: 1, b: 2 } }) as JsonRpcRequest);
    expect(await turnsUntilSettled(answer)).toBeLessThanOrEqual(1);
    expect(await answer).toMatchObject({ id: 2, result: { isError: true, content: [{ type: 'text', text: 'no' }] } });
  });

  test('an asynchronous tool is waited for', async () => {
    const answer = execute(server, request(3, 'tools/call', { name: 'addLater', arguments: { a: 1, b: 2 } }) as JsonRpcRequest);
    expect(await answer).toMatchObject({ id: 3, result: { content: [{ type: 'text', text: '3' }] } });
  });
});

describe('answerRequest: the response itself when nothing waited', () => {
  const { server } = harness([SyncServer]);
  beforeAll(() => preloadValidators());

  test('a synchronous tool: the response, not a promise of it', () => {
    const answer = server.engine.answerRequest(request(1, 'tools/call', { name: 'add', arguments: { a: 20, b: 22 } }) as JsonRpcRequest, {
      notify: () => {},
    });
    expect(answer).not.toBeInstanceOf(Promise);
    expect(answer).toMatchObject({ id: 1, result: { resultType: 'complete', content: [{ type: 'text', text: '42' }] } });
  });

  test('an asynchronous tool: a promise of the response', async () => {
    const answer = server.engine.answerRequest(request(2, 'tools/call', { name: 'addLater', arguments: { a: 1, b: 2 } }) as JsonRpcRequest, {
      notify: () => {},
    });
    expect(answer).toBeInstanceOf(Promise);
    expect(await answer).toMatchObject({ id: 2, result: { content: [{ type: 'text', text: '3' }] } });
  });

  test('answerRequest: a routing error and a synchronous tool at once, the same answers handle gives', async () => {
    const unknown = request(3, 'tools/call', { name: 'nope', arguments: {} }) as JsonRpcRequest;
    const add = request(4, 'tools/call', { name: 'add', arguments: { a: 1, b: 1 } }) as JsonRpcRequest;
    for (const message of [unknown, add]) {
      const answer = server.engine.answerRequest(message, { notify: () => {} });
      expect(answer).not.toBeInstanceOf(Promise);
      expect(answer).toEqual(await server.engine.handle(message, { notify: () => {} }));
    }
    expect(server.engine.answerRequest(unknown, { notify: () => {} })).toMatchObject({ id: 3, error: { code: -32602 } });
  });
});

describe('a result that cannot be answered', () => {
  test("a middleware's frozen result (no room for the server's _meta): -32603 for the request, logged, and the engine keeps serving", async () => {
    const { logger, lines } = capturingLogger('error');
    const frozen = Object.freeze({ resultType: 'complete', content: [], isError: false });
    const { call } = harness([SyncServer], { logger, middleware: [(passing, next) => (passing.target?.name === 'refuse' ? frozen : next())] });
    await preloadValidators();
    const answer = await call(request(1, 'tools/call', { name: 'refuse', arguments: { a: 1, b: 2 } }));
    expect(answer?.error.code).toBe(-32603);
    expect(lines.some((line) => line.msg === 'request failed')).toBe(true);
    const next = await call(request(2, 'tools/call', { name: 'add', arguments: { a: 1, b: 2 } }));
    expect(next?.result.content).toEqual([{ type: 'text', text: '3' }]);
  });
});

describe('the MRTR seam', () => {
  const asking = { request: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} } } as unknown as AskingCall;
  const target: AskTarget = { mrtr: undefined, name: 't', args: {} };

  test('answers a synchronous handler synchronously', () => {
    expect(mrtrSeam.run(asking, target, () => 7)).toEqual({ kind: 'value', value: 7, retry: false });
  });

  test("throws a synchronous handler's error synchronously", () => {
    let returned: unknown;
    let thrown: unknown;
    try {
      returned = mrtrSeam.run(asking, target, () => {
        throw new Error('boom');
      });
    } catch (error) {
      thrown = error;
    }
    // A rejected promise instead would be the failure this test is for: keep it handled.
    if (returned instanceof Promise) returned.catch(() => {});
    expect((thrown as Error | undefined)?.message).toBe('boom');
  });

  test('answers an asynchronous handler with a promise, and rejects with its error', async () => {
    await expect(mrtrSeam.run(asking, target, async () => 8)).resolves.toEqual({ kind: 'value', value: 8, retry: false });
    await expect(mrtrSeam.run(asking, target, async () => Promise.reject(new Error('later')))).rejects.toThrow('later');
  });
});

describe("a legacy session's seam (session asks)", () => {
  const seam = new SessionAskSeam({} as never, {} as never);
  const asking = () => ({ request: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} } }) as unknown as AskingCall;
  const target: AskTarget = { mrtr: undefined, name: 't', args: {} };

  test('answers a synchronous handler synchronously, an asynchronous one with a promise', async () => {
    expect(seam.run(asking(), target, () => 7)).toEqual({ kind: 'value', value: 7, retry: false });
    await expect(seam.run(asking(), target, async () => 8)).resolves.toEqual({ kind: 'value', value: 8, retry: false });
  });
});
