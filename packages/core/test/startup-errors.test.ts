import 'reflect-metadata';
import { IsString } from 'class-validator';
import { Type } from 'typebox';
import {
  Complete,
  createServer,
  DecorumStartupError,
  DecorumUsageError,
  McpServer,
  Prompt,
  Resource,
  serverOf,
  Tool,
  UsageErrorCode,
  type CompletionContext,
  type ToolContext,
} from '@decorum/core';
import { harness, quietLogger } from './support/engine-harness.js';
import { request } from '@decorum-internal/test-support';

class Args {
  @IsString() q!: string;
}

@McpServer({ name: 'github', version: '1.0.0' })
class GithubServer {
  @Tool() search(args: Args) {
    return args.q;
  }
}

@McpServer({ name: 'docs', version: '1.0.0' })
class DocsServer {
  @Tool() search(args: Args) {
    return args.q;
  }
}

const build =
  (...targets: object[]) =>
  () =>
    createServer(targets, { logger: quietLogger });

describe('start-up errors', () => {
  test('a duplicate tool name across classes names both places', () => {
    expect(build(GithubServer, DocsServer)).toThrow(DecorumStartupError);
    expect(build(GithubServer, DocsServer)).toThrow(/DECORUM_ERR_DUPLICATE_NAME.*GithubServer\.search.*DocsServer\.search/);
  });

  test('duplicate prompt and resource names too', () => {
    class P1 {
      @Prompt({ input: null }) hello() {
        return 'a';
      }
    }
    class P2 {
      @Prompt({ input: null, name: 'hello' }) hi() {
        return 'b';
      }
    }
    class R1 {
      @Resource({ uri: 'a://1', name: 'r' }) r() {
        return 'a';
      }
    }
    class R2 {
      @Resource({ uri: 'a://2', name: 'r' }) r() {
        return 'b';
      }
    }
    expect(build(P1, P2)).toThrow(/prompt "hello" is declared twice: by P1\.hello and by P2\.hi/);
    expect(build(R1, R2)).toThrow(/DECORUM_ERR_DUPLICATE_NAME/);
  });

  test.each(['has space', 'comma,name', '', 'x'.repeat(129), 'naïve'])('tool name %p breaks the naming rules', (name) => {
    class Bad {
      @Tool({ name, input: null }) t() {
        return 'x';
      }
    }
    expect(build(Bad)).toThrow(/DECORUM_ERR_INVALID_NAME/);
  });

  test('missing decorator metadata (esbuild/tsx) asks for input:', () => {
    class NoMetadata {
      search(args: unknown) {
        return args;
      }
    }
    // What an esbuild-compiled class looks like: the decorator ran, but no design:paramtypes exists.
    const descriptor = Object.getOwnPropertyDescriptor(NoMetadata.prototype, 'search')!;
    Reflect.deleteMetadata('design:paramtypes', NoMetadata.prototype, 'search');
    Tool()(NoMetadata.prototype, 'search', descriptor);
    expect(build(NoMetadata)).toThrow(/DECORUM_ERR_MISSING_METADATA.*NoMetadata\.search.*pass input:/);
  });

  test('an interface-typed parameter is refused rather than given an empty schema', () => {
    interface Shape {
      q: string;
    }
    class Interfaced {
      @Tool() search(args: Shape) {
        return args.q;
      }
    }
    expect(build(Interfaced)).toThrow(/DECORUM_ERR_UNSUPPORTED_INPUT.*Interfaced\.search/);
  });

  test('a class that is not a server is refused', () => {
    class Plain {}
    expect(build(Plain)).toThrow(/DECORUM_ERR_NO_SERVERS.*Plain/);
  });

  test('a resource needs uri or uriTemplate, and an absolute uri', () => {
    class Relative {
      @Resource({ uri: 'not-a-uri' }) r() {
        return 'x';
      }
    }
    expect(build(Relative)).toThrow(/DECORUM_ERR_INVALID_DECLARATION.*absolute URI/);
  });

  test('a bad option has its own code (INVALID_OPTION where none finer fits), apart from a bad declaration', () => {
    const withOptions = (options: object) => () => createServer([GithubServer], { logger: quietLogger, ...options });
    expect(withOptions({ rateLimit: { points: 0 } })).toThrow(/^DECORUM_ERR_INVALID_NUMBER: rateLimit\.points must be a positive integer/);
    expect(withOptions({ middleware: ['nope'] })).toThrow(/^DECORUM_ERR_INVALID_OPTION: middleware must be an array of functions/);
    expect(withOptions({ lists: 'mine' })).toThrow(/^DECORUM_ERR_INVALID_OPTION: lists must be/);
    expect(withOptions({ resolve: 'nope' })).toThrow(/^DECORUM_ERR_INVALID_RESOLVER: resolve must be a function/);
    expect(withOptions({ pageSize: 0 })).toThrow(/^DECORUM_ERR_INVALID_NUMBER: pageSize must be a positive integer/);
    expect(withOptions({ cache: { lists: { ttlMs: -1 } } })).toThrow(/^DECORUM_ERR_INVALID_NUMBER: ttlMs must be an integer ≥ 0/);
    expect(withOptions({ eras: 'future' })).toThrow(/^DECORUM_ERR_INVALID_ERAS: eras must be one of/);
    expect(withOptions({ mrtr: { keys: ['c2hvcnQ='] } })).toThrow(/^DECORUM_ERR_INVALID_STATE_KEY: .*each requestState key must be 32 bytes/);
    expect(withOptions({ catalogue: ['Reports'] })).toThrow(/^DECORUM_ERR_INVALID_CATALOGUE: catalogue: each entry must be a class/);
  });
});

/** What an attempt threw: a usage error's message (it starts with its code), or what else happened. */
async function misuse(attempt: () => Promise<unknown>): Promise<string> {
  try {
    await attempt();
    return 'nothing thrown';
  } catch (error) {
    return error instanceof DecorumUsageError ? error.message : `not a DecorumUsageError: ${String(error)}`;
  }
}

const Confirm = { type: 'object', properties: { ok: { type: 'boolean' } } } as const;

@McpServer({ name: 'misuse', version: '1.0.0' })
class Misuse {
  @Prompt({ input: Type.Object({ topic: Type.String() }) })
  write(args: { topic: string }) {
    return `Write about ${args.topic}`;
  }

  // A completer is not a handler that may ask: completion/complete has no input rounds.
  @Complete({ prompt: 'write', argument: 'topic' })
  async topics(_value: string, ctx: CompletionContext) {
    return [await misuse(() => ctx.elicit({ message: 'Which?', requestedSchema: Confirm }))];
  }

  @Tool({ input: null })
  async ask_key_twice(_args: unknown, ctx: ToolContext) {
    // Optional and the client has no elicitation capability: the first ask resolves to undefined.
    await ctx.elicit({ message: 'First?', requestedSchema: Confirm }, { key: 'same', optional: true });
    return misuse(() => ctx.elicit({ message: 'Second?', requestedSchema: Confirm }, { key: 'same', optional: true }));
  }

  @Tool({ input: null })
  async once_name_twice(_args: unknown, ctx: ToolContext) {
    await ctx.once('step', () => 1);
    return misuse(() => ctx.once('step', () => 2));
  }

  @Tool({ input: null })
  async elicit_bad_url(_args: unknown, ctx: ToolContext) {
    return misuse(() => ctx.elicit({ mode: 'url', message: 'Sign in', url: 'not a url' }));
  }

  @Tool({ input: null })
  async journal_too_much(_args: unknown, ctx: ToolContext) {
    return misuse(() => ctx.once('blob', () => 'x'.repeat(200)));
  }
}

describe('run-time misuse', () => {
  test('serverOf on an instance nobody serves is a DecorumUsageError with DECORUM_ERR_NOT_SERVED', () => {
    const unserved = new GithubServer();
    expect(() => serverOf(unserved)).toThrow(DecorumUsageError);
    expect(() => serverOf(unserved)).toThrow(
      expect.objectContaining({
        code: UsageErrorCode.NOT_SERVED,
        message: expect.stringMatching(/^DECORUM_ERR_NOT_SERVED: GithubServer is not served by a Decorum server/),
      }),
    );
  });

  const { call } = harness([Misuse], { mrtr: { keys: ['A'.repeat(43) + '='], journalLimitBytes: 100 } });
  const toolText = async (name: string) => (await call(request(1, 'tools/call', { name, arguments: {} })))?.result.content[0].text;

  test('ctx.elicit outside a tools/call, prompts/get or resources/read handler is DECORUM_ERR_OUTSIDE_HANDLER', async () => {
    const response = await call(request(1, 'completion/complete', { ref: { type: 'ref/prompt', name: 'write' }, argument: { name: 'topic', value: '' } }));
    expect(response?.result.completion.values).toEqual([
      expect.stringMatching(/^DECORUM_ERR_OUTSIDE_HANDLER: ctx\.elicit is only available in tools\/call, prompts\/get and resources\/read handlers$/),
    ]);
  });

  test('an ask key or a ctx.once name used twice in one run is DECORUM_ERR_KEY_REUSED', async () => {
    expect(await toolText('ask_key_twice')).toMatch(/^DECORUM_ERR_KEY_REUSED: MRTR key "same" is used twice in one handler run/);
    expect(await toolText('once_name_twice')).toMatch(/^DECORUM_ERR_KEY_REUSED: ctx\.once\("step"\) is used twice in one handler run/);
  });

  test('ctx.elicit in URL mode without an absolute URL is DECORUM_ERR_INVALID_ASK', async () => {
    const response = await call(request(1, 'tools/call', { name: 'elicit_bad_url', arguments: {} }, { capabilities: { elicitation: { url: {} } } }));
    expect(response?.result.content[0].text).toMatch(/^DECORUM_ERR_INVALID_ASK: ctx\.elicit: url mode needs a valid absolute URL \(got "not a url"\)$/);
  });

  test('a ctx.once result past mrtr.journalLimitBytes is DECORUM_ERR_JOURNAL_OVERFLOW', async () => {
    expect(await toolText('journal_too_much')).toMatch(/^DECORUM_ERR_JOURNAL_OVERFLOW: ctx\.once\("blob"\): the journal would exceed 100 bytes/);
  });
});
