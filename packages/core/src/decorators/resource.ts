import { memberDecorator } from './member-decorator.js';
import type { ResourceOptions, SchemaSource } from './metadata.js';
import type { DualMethodDecorator } from './standard.js';
import type { SchemaOutput } from './schema-type.js';
import type { TemplateVariables } from './template-variables.js';

/** A method `@Resource` accepts for a template: its first parameter takes `Variables`; `ctx` and the rest are free. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the parameters after the variables are the handler's own
export type ResourceHandler<Variables> = (variables: Variables, ...rest: any[]) => unknown;

/**
 * `@Resource({ uriTemplate })`'s decorator, legacy or TC39 standard, typed so that `tsc` refuses a
 * method whose first parameter cannot take the template's variables (a name the template does not
 * have, a variable it lacks) or, with `input:`, what validating them produces.
 */
export interface ResourceTemplateDecorator<Variables> {
  <M extends ResourceHandler<Variables>>(target: object, propertyKey: string | symbol, descriptor: TypedPropertyDescriptor<M>): void;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any class may declare the method
  <M extends ResourceHandler<Variables>>(value: M, context: ClassMethodDecoratorContext<any, M>): void;
}

/** The options of a template resource, with its template's literal type `T` and `input:` source `I`. */
export type ResourceTemplateOptions<T extends string, I extends SchemaSource> = Omit<
  Extract<ResourceOptions, { uriTemplate: string }>,
  'uriTemplate' | 'input'
> & {
  uriTemplate: T;
  input?: I;
};

/**
 * What a template's handler gets: what validating the variables against `input:` produces, else
 * the variables by name; `any` for a template typed only as `string` (its names are not known).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- no literal template: nothing to hold the parameter to
type VariablesOf<T extends string, I> = [I] extends [never] ? (string extends T ? any : TemplateVariables<T>) : SchemaOutput<I>;

/**
 * Exposes a method as an MCP resource template (`uriTemplate`, RFC 6570), called as `(variables, ctx)`.
 * The first parameter must take the template's variables ({@link TemplateVariables}), or with
 * `input:` the validated value. Legacy or standard decorator.
 */
export function Resource<T extends string, I extends SchemaSource = never>(
  options: ResourceTemplateOptions<T, I>,
): ResourceTemplateDecorator<VariablesOf<T, I>>;
/** Exposes a method as an MCP resource at a fixed `uri`, called as `({}, ctx)`. Legacy or standard decorator. */
export function Resource(options: Extract<ResourceOptions, { uri: string }>): DualMethodDecorator;
/** Exposes a method as an MCP resource (`uri`) or resource template (`uriTemplate`). */
export function Resource(options: ResourceOptions): DualMethodDecorator;
export function Resource(options: ResourceOptions): DualMethodDecorator {
  return memberDecorator('@Resource', (propertyKey, paramTypes) => ({ kind: 'resource', propertyKey, options, paramTypes }));
}
