import 'reflect-metadata';
import { DEFAULT_STEP_TIMEOUT_MS, Guard, Tool, Use, type CallResult, type Middleware, type Next } from '@decorum/core';
import { capturingLogger, harness } from './support/engine-harness.js';
import { runChain } from '../src/pipeline/middleware.js';
import { StepTimer } from '../src/pipeline/step-timeout.js';
import type { PipelineCall } from '../src/pipeline/call.js';
import { request } from '@decorum-internal/test-support';

let ran = 0;
/** Calls next() only when the test says so (after its request was already ended). */
let release: (() => Promise<CallResult>) | undefined;
let lateNext: Promise<CallResult> | undefined;

function stuck(): Promise<CallResult> {
  return new Promise(() => {});
}
const late: Middleware = (_call, next: Next) =>
  new Promise<CallResult>(() => {
    release = () => (lateNext = next());
  });
/** Hands on at once, then never answers after the handler did. */
const hangsAfterNext: Middleware = async (_call, next) => {
  await next();
  return stuck();
};
const slowHandlerWatcher: Middleware = (_call, next) => next();
function undecided(): Promise<boolean> {
  return new Promise(() => {});
}

let finishSlow: (() => void) | undefined;

class Steps {
  @Use(stuck) @Tool({ input: null }) never() {
    ran++;
    return 'never';
  }

  @Use(late) @Tool({ input: null }) later() {
    ran++;
    return 'later';
  }

  @Use(hangsAfterNext) @Tool({ input: null }) after() {
    ran++;
    return 'after';
  }

  @Guard(undecided) @Tool({ input: null }) guarded() {
    return 'never';
  }

  @Use(slowHandlerWatcher)
  @Tool({ input: null })
  async slow() {
    // The handler is not the middleware's time: it waits here far longer than stepTimeoutMs.
    await new Promise<void>((resolve) => (finishSlow = resolve));
    return 'slow but fine';
  }

  @Tool({ input: null }) ping() {
    return 'pong';
  }
}

const bound = (name: string, kind = 'Middleware', rule = 'a middleware must call next() or return a result') =>
  `${kind} "${name}" did not answer within 50 ms (stepTimeoutMs), so the request was ended: ${rule}`;

describe('a guard or middleware that never answers (stepTimeoutMs)', () => {
  test('a middleware that never calls next nor answers: -32603 naming it, logged, and the server keeps serving', async () => {
    const { logger, lines } = capturingLogger('warn');
    const { call } = harness([Steps], { stepTimeoutMs: 50, logger });
    const answer = await call(request(1, 'tools/call', { name: 'never' }));
    expect(answer!.error).toEqual({ code: -32603, message: bound('stuck') });
    expect(lines.find((l) => l.msg === 'pipeline step timed out')).toMatchObject({ step: 'stuck', kind: 'middleware', stepTimeoutMs: 50 });
    expect((await call(request(2, 'tools/call', { name: 'ping' })))!.result.content[0].text).toBe('pong');
  });

  test('a next() called after the request was ended runs nothing', async () => {
    ran = 0;
    const { call } = harness([Steps], { stepTimeoutMs: 50 });
    expect((await call(request(1, 'tools/call', { name: 'later' })))!.error).toEqual({ code: -32603, message: bound('late') });
    release!();
    await expect(lateNext).rejects.toThrow('Middleware "late" called next() after its request was ended (stepTimeoutMs)');
    expect(ran).toBe(0);
  });

  test('own time after next() counts too: a middleware that hangs once the handler answered is ended', async () => {
    ran = 0;
    const { call } = harness([Steps], { stepTimeoutMs: 50 });
    expect((await call(request(1, 'tools/call', { name: 'after' })))!.error).toEqual({ code: -32603, message: bound('hangsAfterNext') });
    expect(ran).toBe(1);
  });

  test('a guard that never answers: -32603 naming it', async () => {
    const { call } = harness([Steps], { stepTimeoutMs: 50 });
    expect((await call(request(1, 'tools/call', { name: 'guarded' })))!.error).toEqual({
      code: -32603,
      message: bound('undecided', 'Guard', 'a guard must answer true or false'),
    });
  });

  test('a handler slower than the bound is not cut off: only the steps’ own time counts', async () => {
    const { call } = harness([Steps], { stepTimeoutMs: 50 });
    const answer = call(request(1, 'tools/call', { name: 'slow' }));
    // A stuck call started after it is ended while the slow handler still waits: the bound passed.
    expect((await call(request(2, 'tools/call', { name: 'never' })))!.error.message).toBe(bound('stuck'));
    finishSlow!();
    expect((await answer)!.result.content[0].text).toBe('slow but fine');
  });

  test('on by default (30 s); false turns it off; bad values are start-up errors', () => {
    expect(DEFAULT_STEP_TIMEOUT_MS).toBe(30_000);
    expect(() => harness([Steps], { stepTimeoutMs: false })).not.toThrow();
    expect(() => harness([Steps], { stepTimeoutMs: 0 })).toThrow('stepTimeoutMs must be a positive integer or false (got 0)');
    expect(() => harness([Steps], { stepTimeoutMs: 'soon' as never })).toThrow('stepTimeoutMs must be a positive integer or false (got soon)');
  });
});

describe('the step timer holds a request only while its chain runs', () => {
  // Its set is what the sweep walks: a watch left in it would be kept (and swept) for ever.
  const passThrough: Middleware = (_call, next) => next();
  const resumes: Middleware = async (_call, next) => {
    const result = await next();
    await Promise.resolve();
    return result;
  };
  const call = { ctx: { log: { warn() {} } } } as unknown as PipelineCall;

  test('a chain of three joins the timer once and leaves it when it settles, answered or failed', async () => {
    const timer = new StepTimer(1000);
    let during = -1;
    const terminal = {
      run: () => {
        during = timer.watchedCount;
        return { resultType: 'complete' } as CallResult;
      },
    };
    await runChain([passThrough, resumes, passThrough], call, terminal, timer);
    expect(during).toBe(1);
    expect(timer.watchedCount).toBe(0);
    const failing = {
      run: () => {
        throw new Error('handler failed');
      },
    };
    await expect(runChain([resumes, passThrough], call, failing, timer)).rejects.toThrow('handler failed');
    expect(timer.watchedCount).toBe(0);
  });

  test('a step that never answers is still ended by the sweep, then leaves the timer', async () => {
    const timer = new StepTimer(20);
    const neverAnswers: Middleware = () => new Promise<CallResult>(() => {});
    await expect(runChain([passThrough, neverAnswers], call, { run: () => ({ resultType: 'complete' }) as CallResult }, timer)).rejects.toThrow(
      /did not answer within 20 ms/,
    );
    expect(timer.watchedCount).toBe(0);
  });

  test('of many chains at once, the stuck ones are ended in one sweep and the others finish, in any order', async () => {
    const timer = new StepTimer(20);
    const neverAnswers: Middleware = () => new Promise<CallResult>(() => {});
    const releases: Array<() => void> = [];
    const waits: Middleware = (_call, next) => new Promise<void>((resolve) => releases.push(resolve)).then(() => next());
    const terminal = { run: () => ({ resultType: 'complete' }) as CallResult };
    const chains = Array.from({ length: 30 }, (_, i) => runChain([passThrough, i % 3 === 0 ? neverAnswers : waits], call, terminal, timer));
    expect(timer.watchedCount).toBe(30);
    // Those that answer do so from the last to the first, before their bound, while the stuck ones run out.
    for (const release of releases.reverse()) release();
    const outcomes = await Promise.allSettled(chains);
    expect(outcomes.map((o) => o.status)).toEqual(chains.map((_, i) => (i % 3 === 0 ? 'rejected' : 'fulfilled')));
    expect(timer.watchedCount).toBe(0);
    // The timer is usable again afterwards.
    await runChain([passThrough], call, terminal, timer);
    expect(timer.watchedCount).toBe(0);
  });
});
