import 'reflect-metadata';
import { defineExtension, extensionData, McpServer, Tool, toolOption, Use, type CallResult, type Middleware, type ToolContext } from '@decorum/core';
import { request } from '@decorum-internal/test-support';
import { harness } from '../support/engine-harness.js';

const order: string[] = [];
const step = (name: string): Middleware => {
  const middleware: Middleware = async (call, next) => {
    order.push(`${name}>`);
    const result = await next();
    order.push(`<${name}`);
    return result;
  };
  Object.defineProperty(middleware, 'name', { value: name });
  return middleware;
};

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
