/**
 * One entry point from a schema source (DTO class or TypeBox schema) to what the registry
 * keeps: the JSON Schema for listings and a validator. Everything that can be done once —
 * inspecting the DTO, generating the schema, compiling the validator — happens in
 * `compileSchema`, at start-up; `validate` does only the per-request check.
 */
import { compileDtoValidator, type DtoValidationStrategy } from '../dto/validator.js';
import type { ValidationOutcome } from '../validation/issues.js';
import { compileTypeBoxValidator } from '../validation/typebox-validator.js';
import { dtoToJsonSchema } from '../dto/to-json-schema.js';
import { isTypeBoxSchema, typeBoxToJsonSchema } from './from-typebox.js';
import { deepFreeze, type JsonSchema } from './json-schema.js';

/** A schema ready to serve: its JSON Schema for listings and a validator built once. */
export interface CompiledSchema {
  /** JSON Schema 2020-12, deeply frozen (it is shared by every listing). */
  readonly jsonSchema: JsonSchema;
  /**
   * How `validate` decides: `typebox` — TypeBox's compiled check; `json-schema` — a DTO whose
   * class-validator records all map to its JSON Schema, checked compiled, with class-validator
   * for what the check refuses; `class-validator` — a DTO validated by class-validator throughout.
   */
  readonly strategy: 'typebox' | DtoValidationStrategy;
  /**
   * Checks one value: `{ ok: true, value }` with the value to hand the handler (a DTO instance
   * with defaults, or the TypeBox value with defaults on a copy), or `{ ok: false, issues }`.
   * Compiled checks answer synchronously; only the class-validator path returns a promise, so
   * callers `await` the result (or test for a thenable first).
   */
  validate(value: unknown): ValidationOutcome | Promise<ValidationOutcome>;
}

/** A short description of what was passed instead of a schema, for the error message. */
function describe(source: unknown): string {
  if (source === null) return 'null';
  if (Array.isArray(source)) return 'an array';
  if (typeof source === 'function') return `the function ${source.name || '(anonymous)'}, which is not a class`;
  if (typeof source === 'object') return `an object with keys [${Object.keys(source).join(', ')}] and no JSON Schema keyword`;
  return `a ${typeof source}`;
}

/**
 * Compiles a schema source.
 *
 * @param source - a class-validator DTO class, or a TypeBox 1.x schema (`Type.Object(...)`;
 *   a plain JSON Schema object is accepted the same way, as TypeBox compiles those too).
 * @param objectRoot - require `type: "object"` at the root, as MCP does for tool and prompt
 *   arguments (a DTO always is one); pass `false` for output schemas.
 * @throws Error with a message saying what was expected, when `source` is neither, when a DTO
 *   cannot be turned into a schema (see `inspectDto`), or when `objectRoot` is not met.
 */
export function compileSchema(source: Function | object, objectRoot = true): CompiledSchema {
  if (typeof source === 'function' && typeof source.prototype === 'object' && source.prototype !== null) {
    const jsonSchema = deepFreeze(dtoToJsonSchema(source));
    const validate = compileDtoValidator(source);
    return Object.freeze({ jsonSchema, strategy: validate.strategy, validate });
  }
  if (typeof source === 'function' || !isTypeBoxSchema(source)) {
    throw new Error(`a schema must be a class-validator DTO class or a TypeBox schema (e.g. Type.Object({ ... })); got ${describe(source)}`);
  }
  const jsonSchema = deepFreeze(typeBoxToJsonSchema(source));
  if (objectRoot && jsonSchema.type !== 'object') {
    throw new Error(`an arguments schema must have "type": "object" at its root (got ${JSON.stringify(jsonSchema.type) ?? 'none'}); use Type.Object({ ... })`);
  }
  return Object.freeze({ jsonSchema, strategy: 'typebox' as const, validate: compileTypeBoxValidator(source) });
}
