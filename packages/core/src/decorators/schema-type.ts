/**
 * The TypeScript types a schema source stands for, so that `@Tool({ input, output })` can hold
 * the handler to them: what validation hands the handler, and what the handler must return.
 * A source whose type cannot be known (a plain JSON Schema object, an inferred DTO) links to `any`.
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { Static } from 'typebox';
import type { CallToolResult } from '../protocol/types.js';

/** A TypeBox 1.x schema, told apart from a JSON Schema object literal by its `~kind` marker type. */
type TypeBoxKinded = { readonly '~kind': string };

/**
 * The value a schema source's validation produces: a Standard Schema's output type (after its
 * transforms), a DTO class's instance type, a TypeBox schema's `Static` type; `{}` only for
 * `null` (no arguments); `any` when it is not known (no `input:`, or plain JSON Schema).
 */
export type SchemaOutput<S> = [S] extends [null]
  ? Record<string, never>
  : S extends StandardSchemaV1
    ? StandardSchemaV1.InferOutput<S>
    : // eslint-disable-next-line @typescript-eslint/no-explicit-any
      S extends abstract new (...args: any) => infer Instance
      ? Instance
      : S extends TypeBoxKinded
        ? Static<S>
        : // eslint-disable-next-line @typescript-eslint/no-explicit-any
          any;

/**
 * The value a schema source accepts: a Standard Schema's input type (before its transforms), else
 * as {@link SchemaOutput}. A tool's return value is checked against its `output:` this way.
 */
export type SchemaInput<S> = S extends StandardSchemaV1 ? StandardSchemaV1.InferInput<S> : SchemaOutput<S>;

/**
 * What a tool handler with the `output:` source `O` may return: a value of the schema's input
 * type or a full `CallToolResult` (an `isError` result, or its own `structuredContent`), directly
 * or as a promise.
 */
export type ToolReturn<O> = SchemaInput<O> | CallToolResult | Promise<SchemaInput<O> | CallToolResult>;
