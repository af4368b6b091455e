import 'reflect-metadata';
import { IsString } from 'class-validator';
import { createServer, DecorumStartupError, DecorumUsageError, McpServer, Prompt, Resource, serverOf, Tool, UsageErrorCode } from '@decorum/core';
import { quietLogger } from './support/engine-harness.js';

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

const build = (...targets: object[]) => () => createServer(targets, { logger: quietLogger });

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

  test('a bad option is DECORUM_ERR_INVALID_OPTION, apart from a bad declaration', () => {
    const withOptions = (options: object) => () => createServer([GithubServer], { logger: quietLogger, ...options });
    expect(withOptions({ rateLimit: { points: 0 } })).toThrow(/^DECORUM_ERR_INVALID_OPTION: rateLimit\.points must be a positive integer/);
    expect(withOptions({ middleware: ['nope'] })).toThrow(/^DECORUM_ERR_INVALID_OPTION: middleware must be an array of functions/);
    expect(withOptions({ lists: 'mine' })).toThrow(/^DECORUM_ERR_INVALID_OPTION: lists must be/);
    expect(withOptions({ resolve: 'nope' })).toThrow(/^DECORUM_ERR_INVALID_OPTION: resolve must be a function/);
  });
});

describe('run-time misuse', () => {
  test('serverOf on an instance nobody serves is a DecorumUsageError with DECORUM_ERR_NOT_SERVED', () => {
    const unserved = new GithubServer();
    expect(() => serverOf(unserved)).toThrow(DecorumUsageError);
    expect(() => serverOf(unserved)).toThrow(expect.objectContaining({ code: UsageErrorCode.NOT_SERVED, message: expect.stringMatching(/^DECORUM_ERR_NOT_SERVED: GithubServer is not served by a Decorum server/) }));
  });
});
