import 'reflect-metadata';
import { Type } from 'typebox';
import { Complete, DecorumStartupError, McpServer, Prompt, Resource, Tool, type CompletionContext } from '@decorum/core';
import { harness } from './support/engine-harness.js';
import { request } from '@decorum-internal/test-support';

const LANGUAGES = ['python', 'pytorch', 'perl', 'php', 'typescript'];

@McpServer({ name: 'completing', version: '1.0.0' })
class Completing {
  @Prompt({ input: Type.Object({ language: Type.String(), framework: Type.Optional(Type.String()), style: Type.Optional(Type.String()) }) })
  greet(args: { language: string }) {
    return `Hello in ${args.language}`;
  }

  @Resource({ uriTemplate: 'repos://{owner}/{repo}' })
  repo(variables: Record<string, string>) {
    return `${variables.owner}/${variables.repo}`;
  }

  @Complete({ prompt: 'greet', argument: 'language' })
  languages(value: string) {
    return LANGUAGES.filter((l) => l.startsWith(value));
  }

  @Complete({ prompt: 'greet', argument: 'framework' })
  frameworks(value: string, ctx: CompletionContext) {
    const byLanguage: Record<string, string[]> = { python: ['flask', 'django', 'fastapi'], typescript: ['fastify', 'express'] };
    return (byLanguage[ctx.arguments.language] ?? []).filter((f) => f.startsWith(value));
  }

  @Complete({ resource: 'repos://{owner}/{repo}', argument: 'repo' })
  async repos(value: string, ctx: CompletionContext) {
    const all = Array.from({ length: 250 }, (_, i) => `${ctx.arguments.owner ?? 'x'}-repo-${i}`);
    return all.filter((r) => r.includes(value));
  }

  @Complete({ resource: 'repos://{owner}/{repo}', argument: 'owner' })
  owners() {
    return { values: ['alice', 'bob'], total: 7, hasMore: true };
  }
}

class NoCompleters {
  @Prompt({ input: Type.Object({ a: Type.String() }) })
  p() {
    return 'p';
  }
  @Tool({ input: null })
  t() {
    return 'ok';
  }
}

const complete = (id: string | number, ref: object, argument: object, context?: object) =>
  request(id, 'completion/complete', { ref, argument, ...(context ? { context } : {}) });

describe('completion/complete', () => {
  const { call } = harness([Completing]);

  test('capability completions:{} is advertised when a completer exists', async () => {
    const { result } = (await call(request('d', 'server/discover')))!;
    expect(result.capabilities.completions).toEqual({});
  });

  test('prompt argument: values filtered by the partial value (§19.2 row 33)', async () => {
    const { result } = (await call(complete(1, { type: 'ref/prompt', name: 'greet' }, { name: 'language', value: 'py' })))!;
    expect(result).toMatchObject({ resultType: 'complete', completion: { values: ['python', 'pytorch'] } });
    expect(result.completion.values.length).toBeLessThanOrEqual(100);
    expect(result.ttlMs).toBeUndefined();
    expect(result.cacheScope).toBeUndefined();
    expect(result.completion.hasMore).toBeUndefined();
  });

  test('context.arguments reaches the completer', async () => {
    const { result } = (await call(
      complete(2, { type: 'ref/prompt', name: 'greet' }, { name: 'framework', value: 'f' }, { arguments: { language: 'python' } }),
    ))!;
    expect(result.completion.values).toEqual(['flask', 'fastapi']);
  });

  test('resource template variable: more than 100 values are cut to 100 with total and hasMore', async () => {
    const { result } = (await call(
      complete(3, { type: 'ref/resource', uri: 'repos://{owner}/{repo}' }, { name: 'repo', value: '' }, { arguments: { owner: 'alice' } }),
    ))!;
    expect(result.completion.values).toHaveLength(100);
    expect(result.completion.values[0]).toBe('alice-repo-0');
    expect(result.completion).toMatchObject({ total: 250, hasMore: true });
  });

  test('a completer may return total and hasMore itself', async () => {
    const { result } = (await call(complete(4, { type: 'ref/resource', uri: 'repos://{owner}/{repo}' }, { name: 'owner', value: '' })))!;
    expect(result.completion).toEqual({ values: ['alice', 'bob'], total: 7, hasMore: true });
  });

  test('an argument without a completer → empty values', async () => {
    const { result } = (await call(complete(5, { type: 'ref/prompt', name: 'greet' }, { name: 'style', value: 'x' })))!;
    expect(result.completion).toEqual({ values: [] });
  });

  test('unknown prompt or resource → -32602', async () => {
    const prompt = (await call(complete(6, { type: 'ref/prompt', name: 'nope' }, { name: 'language', value: '' })))!;
    expect(prompt.error.code).toBe(-32602);
    expect(prompt.error.message).toContain('nope');
    const resource = (await call(complete(7, { type: 'ref/resource', uri: 'repos://nope' }, { name: 'repo', value: '' })))!;
    expect(resource.error.code).toBe(-32602);
  });

  test('malformed params → -32602', async () => {
    for (const params of [
      { argument: { name: 'a', value: '' } },
      { ref: { type: 'ref/other' }, argument: { name: 'a', value: '' } },
      { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'language' } },
    ]) {
      const response = (await call(request(8, 'completion/complete', params)))!;
      expect(response.error.code).toBe(-32602);
    }
  });

  test('without any completer: no capability and the method is -32601', async () => {
    const other = harness([NoCompleters]);
    const { result } = (await other.call(request('d', 'server/discover')))!;
    expect(result.capabilities.completions).toBeUndefined();
    const response = (await other.call(complete(9, { type: 'ref/prompt', name: 'p' }, { name: 'a', value: '' })))!;
    expect(response.error.code).toBe(-32601);
  });

  test('a completer naming an undeclared prompt or argument is a start-up error', () => {
    class BadRef {
      @Prompt({ input: Type.Object({ a: Type.String() }) })
      p() {
        return 'p';
      }
      @Complete({ prompt: 'missing', argument: 'a' })
      c() {
        return [];
      }
    }
    class BadArg {
      @Prompt({ input: Type.Object({ a: Type.String() }) })
      p() {
        return 'p';
      }
      @Complete({ prompt: 'p', argument: 'b' })
      c() {
        return [];
      }
    }
    expect(() => harness([BadRef])).toThrow(DecorumStartupError);
    expect(() => harness([BadArg])).toThrow(/has no argument "b"/);
  });

  test('a completer goes with its prompt: disabled or removed, it no longer answers; a prompt of that name added later starts without it', async () => {
    const live = harness([Completing]);
    const languages = () => live.call(complete('l', { type: 'ref/prompt', name: 'greet' }, { name: 'language', value: 'p' }));
    expect((await languages())!.result.completion.values).toEqual(['python', 'pytorch', 'perl', 'php']);
    live.server.live.prompts.disable('greet');
    expect(live.server.live.completer('prompt:greet', 'language')).toBeUndefined();
    live.server.live.prompts.enable('greet');
    expect((await languages())!.result.completion.values).toEqual(['python', 'pytorch', 'perl', 'php']);
    live.server.live.prompts.remove('greet');
    class Greeter {
      @Prompt({ input: Type.Object({ language: Type.String() }) })
      greet() {
        return 'hi';
      }
    }
    live.server.live.add(Greeter);
    expect((await languages())!.result.completion.values).toEqual([]);
    // The resource template's completers are untouched.
    const owners = (await live.call(complete('o', { type: 'ref/resource', uri: 'repos://{owner}/{repo}' }, { name: 'owner', value: '' })))!;
    expect(owners.result.completion.values).toEqual(['alice', 'bob']);
  });

  test('an inherited completer is found through the same walk as the members (a subclass overrides it)', async () => {
    class Child extends Completing {
      override languages(value: string) {
        return [`child-${value}`];
      }
    }
    const child = harness([Child]);
    const response = (await child.call(complete('c', { type: 'ref/prompt', name: 'greet' }, { name: 'language', value: 'p' })))!;
    expect(response.result.completion.values).toEqual(['child-p']);
  });
});
