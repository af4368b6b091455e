import 'reflect-metadata';
import { Type } from 'typebox';
import { createServer, McpServer, Tool, type ToolContext } from '@decorum/core';
import { Cancellation } from '@decorum/core/transport';
import { harness, quietLogger } from './support/engine-harness.js';
import { request } from '@decorum-internal/test-support';

describe('Cancellation', () => {
  it('is not cancelled until cancel() is called, and cancel() is idempotent', () => {
    const cancellation = new Cancellation();
    expect(cancellation.cancelled).toBe(false);
    cancellation.cancel();
    cancellation.cancel();
    expect(cancellation.cancelled).toBe(true);
  });

  it('aborts a signal made before cancel()', () => {
    const cancellation = new Cancellation();
    const { signal } = cancellation;
    let aborts = 0;
    signal.addEventListener('abort', () => aborts++);
    expect(signal.aborted).toBe(false);
    cancellation.cancel();
    expect(signal.aborted).toBe(true);
    expect(aborts).toBe(1);
  });

  it('gives an already aborted signal when asked after cancel()', () => {
    const cancellation = new Cancellation();
    cancellation.cancel();
    expect(cancellation.signal.aborted).toBe(true);
    expect(cancellation.signal).toBe(cancellation.signal);
  });
});

let observed: { aborted: boolean; sameSignal: boolean; sameClient: boolean } | undefined;
let release: (() => void) | undefined;

@McpServer({ name: 'cancel', version: '1.0.0' })
class Waiting {
  @Tool({ input: Type.Object({}) })
  async wait(_args: object, ctx: ToolContext) {
    await new Promise<void>((resolve) => (release = resolve));
    observed = { aborted: ctx.signal.aborted, sameSignal: ctx.signal === ctx.signal, sameClient: ctx.client === ctx.client };
    return 'done';
  }

  @Tool({ input: Type.Object({}) })
  whoami(_args: object, ctx: ToolContext) {
    return `${ctx.method} ${String(ctx.requestId)} ${ctx.client.protocolVersion}`;
  }
}

describe('a request channel with a Cancellation', () => {
  it('shows the handler an aborted ctx.signal and suppresses the response once cancelled', async () => {
    const server = createServer([Waiting], { logger: quietLogger });
    const cancellation = new Cancellation();
    const pending = server.engine.handle(request(7, 'tools/call', { name: 'wait', arguments: {} }), { cancellation, notify: () => {} });
    await new Promise((resolve) => setImmediate(resolve));
    cancellation.cancel();
    release!();
    expect(await pending).toBeUndefined();
    expect(observed).toEqual({ aborted: true, sameSignal: true, sameClient: true });
  });

  it('answers normally when never cancelled, and ctx reads the request', async () => {
    const { call } = harness([Waiting]);
    const response = await call(request('r-1', 'tools/call', { name: 'whoami', arguments: {} }));
    expect(response?.result.content[0].text).toBe('tools/call r-1 2026-07-28');
  });
});
