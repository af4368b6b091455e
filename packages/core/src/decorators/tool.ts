import { memberDecorator } from './member-decorator.js';
import type { SchemaSource, ToolOptions } from './metadata.js';
import type { SchemaOutput, ToolReturn } from './schema-type.js';

/** A method `@Tool` accepts: its first parameter takes `Args`, it returns `Result`; `ctx` and the rest are free. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the parameters after the arguments are the handler's own
export type ToolHandler<Args, Result> = (args: Args, ...rest: any[]) => Result;

/**
 * `@Tool(...)`'s decorator, legacy (`experimentalDecorators`) or TC39 standard, typed so that
 * `tsc` refuses a method whose first parameter cannot take the validated arguments (`Args`) or
 * whose return value does not fit `output:` (`Result`).
 */
export interface ToolDecorator<Args, Result> {
  <M extends ToolHandler<Args, Result>>(target: object, propertyKey: string | symbol, descriptor: TypedPropertyDescriptor<M>): void;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any class may declare the method
  <M extends ToolHandler<Args, Result>>(value: M, context: ClassMethodDecoratorContext<any, M>): void;
}

/** The arguments a handler gets: `I` is `never` when `input:` is not given (the parameter's own type decides). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- no input: nothing to hold the parameter to
type ArgsOf<I> = [I] extends [never] ? any : SchemaOutput<I>;

/** What a handler may return: `O` is `never` when `output:` is not given (then anything). */
type ReturnOf<O> = [O] extends [never] ? unknown : ToolReturn<O>;

/**
 * Exposes a method as an MCP tool. It is called as `(args, ctx)`. Legacy or standard decorator.
 *
 * With `input:` (a DTO class, TypeBox schema or Standard Schema) the method's first parameter must
 * accept what validation produces (the DTO instance, `Static<T>`, the schema's output type); with
 * `output:` it must return the schema's type (or a `CallToolResult`), directly or as a promise.
 */
export function Tool<I extends SchemaSource | null = never, O extends SchemaSource = never>(
  options: ToolOptions<I, O> = {},
): ToolDecorator<ArgsOf<I>, ReturnOf<O>> {
  return memberDecorator('@Tool', (propertyKey, paramTypes) => ({ kind: 'tool', propertyKey, options, paramTypes })) as unknown as ToolDecorator<
    ArgsOf<I>,
    ReturnOf<O>
  >;
}
