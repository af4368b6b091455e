import 'reflect-metadata';
import { Type } from 'typebox';
import { forMethods, McpServer, Prompt, Tool, ToolError, Use, type Middleware, type ToolContext } from '@decorum/core';
import { RawJson } from '@decorum/core/transport';
import { harness } from './support/engine-harness.js';
import { request } from '@decorum-internal/test-support';

const order: string[] = [];
const named = (name: string): Middleware => {
  const middleware: Middleware = async (_call, next) => {
    order.push(`${name}>`);
    const result = await next();
    order.push(`<${name}`);
    return result;
  };
  Object.defineProperty(middleware, 'name', { value: name });
  return middleware;
};

const Confirm = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } as const;
const rounds: Array<{ retry: boolean; result: string }> = [];
const roundWatcher: Middleware = async (call, next) => {
  const result = await next();
  rounds.push({ retry: call.isRetry, result: (result as { resultType?: string }).resultType ?? 'complete' });
  return result;
};

@McpServer({ name: 'pipeline', version: '1.0.0' })
@Use(named('class-a'), named('class-b'))
class Ordered {
  @Use(named('member'))
  @Tool({ input: Type.Object({ n: Type.Integer() }) })
  add(args: { n: number }) {
    order.push('handler');
    return `n=${args.n}`;
  }

  @Tool({ input: null })
  plain() {
    order.push('handler');
    return 'plain';
  }

  @Prompt({ input: null })
  greet() {
    order.push('handler');
    return 'hello';
  }
}

class Shorts {
  @Use(function answerFromCache() {
    return { resultType: 'complete', content: [{ type: 'text', text: 'from cache' }] };
  })
  @Tool({ input: null })
  cached() {
    throw new Error('never runs');
  }

  @Use(async function forgetful() {
    return undefined as never;
  })
  @Tool({ input: null })
  forgot() {
    return 'never runs';
  }

  @Use(function stringly() {
    return 'just text' as never;
  })
  @Tool({ input: null })
  stringly() {
    return 'never runs';
  }

  @Use(async (_call, next) => {
    await next();
    return next();
  })
  @Tool({ input: null })
  twice() {
    return 'once';
  }

  @Use(function explode() {
    throw new Error('secret internals at /srv/app.js:12');
  })
  @Tool({ input: null })
  exploding() {
    return 'never runs';
  }

  @Use(function refuse() {
    throw new ToolError('not today');
  })
  @Tool({ input: null })
  refused() {
    return 'never runs';
  }

  @Use(roundWatcher)
  @Tool({ input: null })
  async confirm(_args: unknown, ctx: ToolContext) {
    const answer = await ctx.elicit({ message: 'Sure?', requestedSchema: Confirm }, { key: 'sure' });
    return answer.action;
  }
}

@Use(named('base'))
class Base {}

@Use(named('derived'))
class Derived extends Base {
  @Use(named('member'))
  @Tool({ input: null })
  inherited() {
    order.push('handler');
    return 'ok';
  }
}

describe('middleware', () => {
  beforeEach(() => {
    order.length = 0;
  });

  test('runs server option → class @Use → member @Use, outermost first, around the handler', async () => {
    const { call } = harness([Ordered], { middleware: [named('server-1'), named('server-2')] });
    const answer = await call(request(1, 'tools/call', { name: 'add', arguments: { n: 2 } }));
    expect(answer?.result.content[0].text).toBe('n=2');
    expect(order).toEqual([
      'server-1>',
      'server-2>',
      'class-a>',
      'class-b>',
      'member>',
      'handler',
      '<member',
      '<class-b',
      '<class-a',
      '<server-2',
      '<server-1',
    ]);
  });

  test('class middleware covers every member of the class; server middleware every method, lists included', async () => {
    const { call } = harness([Ordered], { middleware: [named('server')] });
    await call(request(1, 'tools/call', { name: 'plain' }));
    expect(order).toEqual(['server>', 'class-a>', 'class-b>', 'handler', '<class-b', '<class-a', '<server']);
    order.length = 0;
    await call(request(2, 'prompts/get', { name: 'greet' }));
    expect(order).toEqual(['server>', 'class-a>', 'class-b>', 'handler', '<class-b', '<class-a', '<server']);
    order.length = 0;
    const list = await call(request(3, 'tools/list'));
    expect(list?.result.tools).toHaveLength(2);
    expect(order).toEqual(['server>', '<server']);
  });

  test("an ancestor's class middleware runs outside the subclass's", async () => {
    const { call } = harness([Derived]);
    await call(request(1, 'tools/call', { name: 'inherited' }));
    expect(order).toEqual(['base>', 'derived>', 'member>', 'handler', '<member', '<derived', '<base']);
  });

  test('sees the request: method, target, arguments, ctx; and a list page as RawJson', async () => {
    const seen: unknown[] = [];
    const spy: Middleware = async (call, next) => {
      const result = await next();
      seen.push({
        method: call.method,
        id: call.id,
        target: call.target?.name,
        kind: call.target?.kind,
        args: call.arguments,
        ctxId: call.ctx.requestId,
        version: call.protocolVersion,
        raw: result instanceof RawJson,
      });
      return result;
    };
    const { call } = harness([Ordered], { middleware: [spy] });
    await call(request('a', 'tools/call', { name: 'add', arguments: { n: 5 } }));
    await call(request('b', 'tools/list'));
    expect(seen).toEqual([
      { method: 'tools/call', id: 'a', target: 'add', kind: 'tool', args: { n: 5 }, ctxId: 'a', version: '2026-07-28', raw: false },
      { method: 'tools/list', id: 'b', target: undefined, kind: undefined, args: {}, ctxId: 'b', version: '2026-07-28', raw: true },
    ]);
  });

  test('forMethods limits a server middleware to some methods', async () => {
    const { call } = harness([Ordered], { middleware: [forMethods(['prompts/get'], named('prompts-only'))] });
    await call(request(1, 'tools/call', { name: 'plain' }));
    expect(order).not.toContain('prompts-only>');
    await call(request(2, 'prompts/get', { name: 'greet' }));
    expect(order).toContain('prompts-only>');
  });

  test('can change the result', async () => {
    const upper: Middleware = async (_call, next) => {
      const result = (await next()) as unknown as { content: Array<{ text: string }> };
      return { ...result, content: result.content.map((c) => ({ ...c, text: c.text.toUpperCase() })) } as never;
    };
    const { call } = harness([Ordered], { middleware: [forMethods(['tools/call'], upper)] });
    const answer = await call(request(1, 'tools/call', { name: 'plain' }));
    expect(answer?.result.content[0].text).toBe('PLAIN');
  });

  test('short-circuits with a result of its own; the handler never runs', async () => {
    const { call } = harness([Shorts]);
    const answer = await call(request(1, 'tools/call', { name: 'cached' }));
    expect(answer?.result.content[0].text).toBe('from cache');
  });

  test('one that returns nothing is a -32603 naming it, and the server keeps serving', async () => {
    const { call } = harness([Shorts]);
    const answer = await call(request(1, 'tools/call', { name: 'forgot' }));
    expect(answer?.error).toEqual({ code: -32603, message: expect.stringContaining('Middleware "forgetful" returned nothing') });
    expect((await call(request(2, 'tools/call', { name: 'cached' })))?.result.content[0].text).toBe('from cache');
  });

  test('one that returns something other than a result object is a -32603 naming it (the response is still written)', async () => {
    const { call } = harness([Shorts]);
    const answer = await call(request(1, 'tools/call', { name: 'stringly' }));
    expect(answer?.error).toEqual({ code: -32603, message: 'Middleware "stringly" returned a string, not a result object' });
  });

  test('calling next() twice is refused (the handler runs once)', async () => {
    const { call } = harness([Shorts]);
    const answer = await call(request(1, 'tools/call', { name: 'twice' }));
    expect(answer?.error).toMatchObject({ code: -32603, message: expect.stringContaining('called next() more than once') });
  });

  test('an unexpected throw is a generic -32603 without its message or stack', async () => {
    const { call } = harness([Shorts]);
    const answer = await call(request(1, 'tools/call', { name: 'exploding' }));
    expect(answer?.error).toEqual({ code: -32603, message: 'Internal error' });
    expect(JSON.stringify(answer)).not.toContain('secret');
  });

  test('sees every MRTR round: the first (input_required) and the retry (complete)', async () => {
    rounds.length = 0;
    const { call } = harness([Shorts], { mrtr: { keys: ['A'.repeat(43) + '='] } });
    const first = await call(request(1, 'tools/call', { name: 'confirm' }, { capabilities: { elicitation: {} } }));
    expect(first?.result.resultType).toBe('input_required');
    const second = await call(
      request(
        2,
        'tools/call',
        { name: 'confirm', requestState: first?.result.requestState, inputResponses: { sure: { action: 'accept', content: { ok: true } } } },
        { capabilities: { elicitation: {} } },
      ),
    );
    expect(second?.result.content[0].text).toBe('accept');
    expect(rounds).toEqual([
      { retry: false, result: 'input_required' },
      { retry: true, result: 'complete' },
    ]);
  });

  test('start-up errors: @Use and the option take functions only', () => {
    expect(() => Use('nope' as never)).toThrow('@Use(...) takes functions (got string)');
    expect(() => harness([Ordered], { middleware: ['nope' as never] })).toThrow('middleware must be an array of functions');
  });

  test('a ToolError belongs to handlers: thrown by middleware it is a generic -32603, not a tool result', async () => {
    const { call } = harness([Shorts]);
    const answer = await call(request(1, 'tools/call', { name: 'refused' }));
    expect(answer?.error).toEqual({ code: -32603, message: 'Internal error' });
  });
});
