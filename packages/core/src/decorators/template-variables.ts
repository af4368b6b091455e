/**
 * The variables of an RFC 6570 URI template, worked out from its literal type, so that a resource
 * handler's parameter can be checked against its `uriTemplate` by `tsc`.
 */

/** RFC 6570 expression operators (level 2 and 3); no operator is simple string expansion. */
type Operator = '+' | '#' | '.' | '/' | ';' | '?' | '&';

/** Operators whose variables a matching URI may leave out: the query (`?`, `&`) and the fragment (`#`). */
type OptionalOperator = '?' | '&' | '#';

/** The text inside each `{…}` of a template, as a union. */
type Expressions<T extends string> = T extends `${string}{${infer Expression}}${infer Rest}` ? Expression | Expressions<Rest> : never;

/** An expression's operator and its variable list. */
type Parts<E extends string> = E extends `${infer First}${infer Rest}` ? (First extends Operator ? [First, Rest] : ['', E]) : ['', E];

/** The comma-separated varspecs of a list, as a union. */
type VarSpecs<L extends string> = L extends `${infer Head},${infer Tail}` ? Head | VarSpecs<Tail> : L;

/** A varspec's name, without its explode (`*`) or prefix (`:3`) modifier. */
type VarName<V extends string> = V extends `${infer Name}*` ? Name : V extends `${infer Name}:${string}` ? Name : V;

/** One variable: its name, its expression's operator and whether it is exploded. */
interface Variable<Name extends string, Op extends string, Explode extends boolean> {
  name: Name;
  op: Op;
  explode: Explode;
}

type VariablesOf<E extends string> = E extends string
  ? Parts<E> extends [infer Op extends string, infer List extends string]
    ? VarSpecs<List> extends infer V
      ? V extends string
        ? Variable<VarName<V>, Op, V extends `${string}*` ? true : false>
        : never
      : never
    : never
  : never;

/**
 * What matching hands over for one variable: a string, or for an exploded one (`{/path*}`) the
 * list of its parts; a form-style (`;`, `?`, `&`) exploded variable may also come as its keys.
 */
type ValueOf<V> = V extends { explode: true; op: ';' | '?' | '&' } ? string[] | Record<string, string> : V extends { explode: true } ? string[] : string;

type Flatten<T> = { [K in keyof T]: T[K] };

/**
 * The variables a resource handler receives for a URI template `T`, by name: required for simple,
 * reserved (`{+x}`), label (`{.x}`), path (`{/x}`) and path-parameter (`{;x}`) expressions,
 * optional for query (`{?x,y}`, `{&x}`) and fragment (`{#x}`) ones. Values are strings; an exploded
 * variable (`{/path*}`) is a list of strings (form-style ones may also be a key→value record).
 * A prefix (`{id:3}`) does not change the name. A template without expressions has no variables
 * (`Record<string, never>`); one typed only as `string` may have any.
 *
 * @example
 * ```ts
 * type V = TemplateVariables<'orders://{orderId}{?page}'>; // { orderId: string; page?: string }
 *
 * @Resource({ uriTemplate: 'orders://{orderId}{?page}' })
 * order({ orderId, page }: TemplateVariables<'orders://{orderId}{?page}'>) { ... }
 * ```
 */
export type TemplateVariables<T extends string> = string extends T
  ? Record<string, string | string[] | Record<string, string>>
  : [Expressions<T>] extends [never]
    ? Record<string, never>
    : Flatten<
        { [V in VariablesOf<Expressions<T>> as V extends { op: OptionalOperator } ? never : V['name']]: ValueOf<V> } & {
          [V in VariablesOf<Expressions<T>> as V extends { op: OptionalOperator } ? V['name'] : never]?: ValueOf<V>;
        }
      >;
