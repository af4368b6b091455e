import { describe, expect, test } from '@jest/globals';
import { Complete, createServer, Field, McpServer, Prompt, Resource, Tool } from '@decorum/core';
import { compileSchema } from '../src/schema/compiled-input.js';
import { IsString } from 'class-validator';
import { Type } from 'typebox';
import { quietLogger } from './support/engine-harness.js';

/** A standard (TC39) decorator context as compilers pass it, with the class's metadata object. */
function context(kind: string, name: string | symbol, metadata: Record<PropertyKey, unknown> | undefined, extra: Record<string, unknown> = {}) {
  return { kind, name, metadata, static: false, private: false, addInitializer: () => {}, ...extra } as unknown as ClassMethodDecoratorContext;
}
const metadataKey = (Symbol as { metadata?: symbol }).metadata!;

/** Decorates `cls` the way TypeScript's and esbuild's standard-decorator output does. */
function decorateStandard(
  cls: new () => object,
  members: Record<string, Array<(value: unknown, ctx: ClassMethodDecoratorContext) => void>>,
  classDecorators: Array<(value: unknown, ctx: ClassDecoratorContext) => void> = [],
) {
  const metadata: Record<PropertyKey, unknown> = Object.create(null);
  for (const [name, decorators] of Object.entries(members))
    for (const d of decorators) d((cls.prototype as Record<string, unknown>)[name], context('method', name, metadata));
  Object.defineProperty(cls, metadataKey, { value: metadata, configurable: true });
  for (const d of classDecorators) d(cls, context('class', cls.name, metadata) as unknown as ClassDecoratorContext);
}

describe('Decorum decorators in the TC39 standard form', () => {
  test('Symbol.metadata exists once @decorum/core is imported (Node 20 has none), as esbuild names it', () => {
    expect(metadataKey).toBe(Symbol.for('Symbol.metadata'));
  });

  test('records reach the registry as the legacy form would, and a subclass inherits them', () => {
    class Standard {
      hello() {
        return 'hi';
      }
      greet(args: { who: string }) {
        return `Hello ${args.who}`;
      }
      who(value: string) {
        return ['ann', 'bob'].filter((n) => n.startsWith(value));
      }
    }
    decorateStandard(
      Standard,
      {
        hello: [Tool({ input: null, description: 'Says hi' }) as never],
        greet: [Prompt({ input: Type.Object({ who: Type.String() }) }) as never, Resource({ uri: 'x://greet' }) as never],
        who: [Complete({ prompt: 'greet', argument: 'who' }) as never],
      },
      [McpServer({ name: 'standard', version: '2.0.0' }) as never],
    );
    const server = createServer([Standard], { logger: quietLogger });
    expect(server.info).toEqual({ name: 'standard', version: '2.0.0' });
    expect([...server.registry.tools.keys()]).toEqual(['hello']);
    expect([...server.registry.prompts.keys()]).toEqual(['greet']);
    expect([...server.registry.fixedResources.keys()]).toEqual(['x://greet']);
    expect(server.live.completer('prompt:greet', 'who')).toBeDefined();

    class Sub extends Standard {}
    Object.defineProperty(Sub, metadataKey, { value: Object.create((Standard as unknown as Record<symbol, object>)[metadataKey]), configurable: true });
    expect([...createServer([Sub], { logger: quietLogger }).registry.tools.keys()]).toEqual(['hello']);
  });

  test('@Field in the standard form describes a DTO property', () => {
    const metadata: Record<PropertyKey, unknown> = Object.create(null);
    class Args {
      q!: string;
    }
    Field({ description: 'The query' })(undefined, context('field', 'q', metadata) as unknown as ClassFieldDecoratorContext);
    Object.defineProperty(Args, metadataKey, { value: metadata });
    IsString()(Args.prototype, 'q');
    expect(compileSchema(Args).jsonSchema.properties).toEqual({ q: { type: 'string', description: 'The query' } });
  });

  test.each([
    ['a field', context('field', 'x', {})],
    ['a static method', context('method', 'x', {}, { static: true })],
    ['a private method', context('method', '#x', {}, { private: true })],
    ['a symbol-named method', context('method', Symbol('x'), {})],
  ])('@Tool on %s is a start-up error that says what it needs', (_what, ctx) => {
    expect(() => (Tool({ input: null }) as (v: unknown, c: ClassMethodDecoratorContext) => void)(() => {}, ctx)).toThrow(
      /DECORUM_ERR_INVALID_DECLARATION: @Tool on .*: it (decorates methods, not a field|needs a public, non-static member with a string name)/,
    );
  });

  test('without context.metadata (Symbol.metadata missing at class definition) the error says what to do', () => {
    expect(() => (Tool({ input: null }) as (v: unknown, c: ClassMethodDecoratorContext) => void)(() => {}, context('method', 'x', undefined))).toThrow(
      /no context\.metadata \(Symbol\.metadata\).*experimentalDecorators/,
    );
  });
});
