import { DecorumStartupError, StartupErrorCode } from '../errors/startup-error.js';
import type { SchemaSource } from '../decorators/metadata.js';

/** Built-in constructors that TypeScript emits as design types but that are not DTOs. */
const NOT_DTO = new Set<unknown>([Object, String, Number, Boolean, Array, Function, Promise, Symbol, BigInt, Date, Map, Set]);

/**
 * Decides where a handler's argument schema comes from: the decorator's `input:`, else the
 * design type of the first parameter. Never guesses an empty schema: without metadata (code
 * compiled by esbuild/tsx) or with an interface/type-literal parameter, start-up fails and says
 * what to write instead. Returns `null` for a handler without arguments.
 */
export function resolveInputSource(
  options: { input?: SchemaSource | null },
  paramTypes: unknown[] | undefined,
  method: (...args: never[]) => unknown,
  source: string,
): SchemaSource | null {
  if (Object.prototype.hasOwnProperty.call(options, 'input') && options.input !== undefined) return options.input;
  if (paramTypes === undefined) {
    if (method.length === 0) return null;
    throw new DecorumStartupError(
      StartupErrorCode.MISSING_METADATA,
      `${source} has parameters but no decorator metadata (design:paramtypes), so its input schema cannot be inferred. ` +
        'TC39 standard decorators (TypeScript without experimentalDecorators) never carry parameter types, and esbuild, tsx and Bun drop them: ' +
        'pass input: (a class-validator DTO class, a TypeBox schema, or a Standard Schema such as zod 4; null for no arguments) to the decorator, ' +
        'or compile with tsc/swc, experimentalDecorators and emitDecoratorMetadata to infer DTOs from parameter types. ' +
        'To run your own TypeScript app that way in development (instead of tsx), start it with node --import @decorum/cli/register src/app.ts (mcp-serve MODULE does the same)',
    );
  }
  if (paramTypes.length === 0) return null;
  const first = paramTypes[0];
  if (typeof first === 'function' && !NOT_DTO.has(first)) return first as SchemaSource;
  throw new DecorumStartupError(
    StartupErrorCode.UNSUPPORTED_INPUT,
    `the first parameter of ${source} is typed with an interface, type literal or built-in, which leaves no runtime schema. ` +
      'Type it with a class-validator DTO class, or pass input: (DTO class, TypeBox schema or Standard Schema such as zod 4; null for no arguments, with ctx as the second parameter)',
  );
}
