import 'reflect-metadata';
import { defineExtension, extensionData, McpServer, Tool, toolOption, Use, type CallResult, type Middleware, type ToolContext } from '@decorum/core';
import { request, until } from '@decorum-internal/test-support';
import { harness } from '../support/engine-harness.js';

const order: string[] = [];
/** A middleware named `name` that records entering and leaving (`name>`, `<name`) in `order`. */
const step = (name: string): Middleware =>
  Object.defineProperty(
    (async (_call, next) => {
      order.push(`${name}>`);
      try {
        return await next();
      } finally {
        order.push(`<${name}`);
      }
    }) as Middleware,
    'name',
    { value: name },
  );

const JOB = Symbol('job');
let finished: (value: { result: CallResult; requestSignalAborted: boolean }) => void = () => {};
let release: () => void = () => {};
let started: () => void = () => {};

@McpServer({ name: 'around', version: '1.0.0' })
@Use(step('class'))
class Jobs {
  @Use(step('member'))
  @Tool({ input: null, background: { label: 'slow' } } as never)
  async slow(_args: unknown, ctx: ToolContext) {
    order.push(`handler job=${extensionData<string>(ctx, JOB)}`);
    const waiting = new Promise<void>((resolve) => (release = resolve));
    started();
    await waiting;
    ctx.progress(1, 2, 'half');
    return `done, aborted=${ctx.signal.aborted}`;
  }

  @Tool({ input: null })
  quick(_args: unknown, ctx: ToolContext) {
    order.push(`quick job=${String(extensionData(ctx, JOB))}`);
    return 'quick';
  }
}

const progressed: unknown[] = [];
const background = defineExtension({
  id: 'com.example/background',
  middleware: [step('ext')],
  toolOptions: {
    background: (value) => {
      if (typeof (value as { label?: unknown })?.label !== 'string') throw new Error('background needs a label');
      return (value as { label: string }).label;
    },
  },
  around: {
    'tools/call': {
      applies: (tool) => toolOption(tool, 'background') !== undefined,
      run(call, proceed) {
        order.push(`around ${toolOption(call.target!.entry as never, 'background')}`);
        const own = new AbortController();
        const requestSignal = call.ctx.signal;
        void proceed({
          signal: own.signal,
          data: new Map([[JOB, 'job-1']]),
          progress: (p, total, message) => progressed.push({ p, total, message }),
        }).then((result) => finished({ result, requestSignalAborted: requestSignal.aborted }));
        return { content: [{ type: 'text', text: 'started' }] };
      },
    },
  },
});

describe('around steps and derived calls', () => {
  const { call } = harness([Jobs], { extensions: [background], middleware: [step('server')] });

  test('the around step answers at once; proceed runs @Use and the handler on a derived call that outlives the request', async () => {
    order.length = 0;
    const done = new Promise<{ result: CallResult; requestSignalAborted: boolean }>((resolve) => (finished = resolve));
    const running = new Promise<void>((resolve) => (started = resolve));
    const response = await call(request(1, 'tools/call', { name: 'slow' }));
    expect(response?.result.content).toEqual([{ type: 'text', text: 'started' }]);
    await running;
    // The request has answered; the handler still runs (it waits for release), inside the class's and member's @Use.
    expect(order.filter((entry) => !entry.startsWith('<'))).toEqual(['server>', 'ext>', 'around slow', 'class>', 'member>', 'handler job=job-1']);
    expect(order.indexOf('<server')).toBeGreaterThan(order.indexOf('around slow'));
    release();
    const { result } = await done;
    expect((result as { content: Array<{ text: string }> }).content[0]!.text).toBe('done, aborted=false');
    expect(order.slice(-2)).toEqual(['<member', '<class']);
    expect(progressed).toEqual([{ p: 1, total: 2, message: 'half' }]);
  });

  test("the derived call has its own cancellation: the request's does not reach the handler, the extension's does", async () => {
    const detached = defineExtension({
      id: 'com.example/detached',
      toolOptions: { background: () => true },
      around: {
        'tools/call': {
          applies: () => true,
          run(call, proceed) {
            void proceed({ signal: own.signal }).then(
              (result) => finish(result),
              (error: unknown) => finish({ content: [{ type: 'text', text: `rejected: ${String(error)}` }] }),
            );
            return { content: [{ type: 'text', text: 'started' }] };
          },
        },
      },
    });
    const own = new AbortController();
    let finish: (result: CallResult) => void = () => {};
    const finished = new Promise<CallResult>((resolve) => (finish = resolve));
    const signals: AbortSignal[] = [];
    @McpServer({ name: 'waits', version: '1.0.0' })
    class Waits {
      @Tool({ input: null, background: true } as never)
      async wait(_args: unknown, ctx: ToolContext) {
        signals.push(ctx.signal);
        await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
        return `aborted by ${String(ctx.signal.reason)}`;
      }
    }
    const { server } = harness([Waits], { extensions: [detached] });
    const request_ = new AbortController();
    const answer = await server.engine.handle(request(9, 'tools/call', { name: 'wait' }), { signal: request_.signal, notify: () => {} });
    expect(JSON.parse(JSON.stringify(answer)).result.content[0].text).toBe('started');
    await until('the handler runs', () => signals.length > 0);
    request_.abort('the request');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(signals[0]!.aborted).toBe(false);
    own.abort('the extension');
    expect(((await finished) as { content: Array<{ text: string }> }).content[0]!.text).toBe('aborted by the extension');
  });

  test('a tool no around step applies to composes as before, and extensionData is undefined there', async () => {
    order.length = 0;
    expect((await call(request(2, 'tools/call', { name: 'quick' })))?.result.content[0].text).toBe('quick');
    expect(order).toEqual(['server>', 'ext>', 'class>', 'quick job=undefined', '<class', '<ext', '<server']);
  });

  test('extension middleware also runs for methods without a target', async () => {
    order.length = 0;
    await call(request(3, 'tools/list'));
    expect(order).toEqual(['server>', 'ext>', '<ext', '<server']);
  });
});
