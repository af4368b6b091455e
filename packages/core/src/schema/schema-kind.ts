/**
 * What `compileSchema` asks of each kind of schema source (a class-validator DTO, TypeBox or a
 * JSON Schema literal, a Standard Schema): whether a source is one, its JSON Schema and its
 * validator, both made once at start-up. Each kind lives in its own folder (`dto/`, `typebox/`,
 * `standard/`) behind this interface; `compileSchema` knows only the list of kinds.
 */
import type { ValidationOutcome } from './issues.js';
import type { JsonSchema } from './json-schema.js';

/** How a compiled schema validates: `typebox`, `standard-schema`, or a DTO's `json-schema` (compiled, class-validator behind it) or `class-validator`. */
export type ValidationStrategy = 'typebox' | 'standard-schema' | 'json-schema' | 'class-validator';

/** A validator built once: synchronous where its check is, a promise otherwise. */
export interface SchemaValidator {
  (value: unknown): ValidationOutcome | Promise<ValidationOutcome>;
}

/** One kind of schema source. */
export interface SchemaKind<Source = unknown> {
  /** True when `source` is a schema of this kind (asked in order: the first kind that says yes compiles it). */
  accepts(source: unknown): source is Source;
  /**
   * The JSON Schema `source` lists, not yet frozen. `direction` is which side a schema with
   * transforms lists: `input` (what callers send) or `output` (what its validation hands on).
   */
  toJsonSchema(source: Source, direction: 'input' | 'output'): JsonSchema;
  /** The validator of `source` and how it decides. */
  compile(source: Source): { readonly strategy: ValidationStrategy; readonly validate: SchemaValidator };
  /** What to write instead, said when an arguments schema of this kind has no object root; `undefined` where the root is always an object. */
  readonly objectRootFix: string | undefined;
}
