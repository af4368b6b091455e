/**
 * One entry point from a schema source (DTO class, TypeBox/JSON Schema or Standard Schema) to
 * what the registry keeps: the JSON Schema for listings and a validator. Everything that can be
 * done once — inspecting the DTO, generating the schema, compiling the validator — happens in
 * `compileSchema`, at start-up; `validate` does only the per-request check.
 */
import { DecorumStartupError, StartupErrorCode } from '../errors/startup-error.js';
import { dtoKind } from './dto/dto-kind.js';
import type { ValidationOutcome } from './issues.js';
import { deepFreeze, type JsonSchema } from './json-schema.js';
import type { SchemaKind, ValidationStrategy } from './schema-kind.js';
import { standardKind } from './standard/standard-kind.js';
import { typeBoxKind } from './typebox/typebox-kind.js';

/** The kinds of schema source, in the order they are asked (see each kind for why it comes where it does). */
const KINDS: readonly SchemaKind[] = [standardKind, dtoKind, typeBoxKind];

/** A schema ready to serve: its JSON Schema for listings and a validator built once. */
export interface CompiledSchema {
  /** JSON Schema 2020-12, deeply frozen (it is shared by every listing). */
  readonly jsonSchema: JsonSchema;
  /**
   * How `validate` decides: `typebox` — TypeBox's compiled check; `json-schema` — a DTO whose
   * class-validator records all map to its JSON Schema, checked compiled, with class-validator
   * for what the check refuses; `class-validator` — a DTO validated by class-validator throughout;
   * `standard-schema` — the schema library's own `~standard.validate` (zod, valibot, ArkType, …).
   */
  readonly strategy: ValidationStrategy;
  /**
   * Checks one value: `{ ok: true, value }` with the value to hand the handler (a DTO instance
   * with defaults, the TypeBox value with defaults on a copy, or a Standard Schema's output value),
   * or `{ ok: false, issues }`. Compiled checks answer synchronously; the class-validator path and
   * a Standard Schema with async checks return a promise, so callers `await` the result (or test
   * for a thenable first).
   */
  validate(value: unknown): ValidationOutcome | Promise<ValidationOutcome>;
}

/** A short description of what was passed instead of a schema, for the error message. */
function describe(source: unknown): string {
  if (source === null) return 'null';
  if (Array.isArray(source)) return 'an array';
  if (typeof source === 'function') return `the function ${source.name || '(anonymous)'}, which is not a class`;
  if (typeof source === 'object') {
    const prototype = Object.getPrototypeOf(source) as { constructor?: { name?: string } } | null;
    if (prototype !== Object.prototype && prototype !== null)
      return `an instance of ${prototype.constructor?.name || 'a class'}, not a plain JSON Schema object`;
    return `an object with keys [${Object.keys(source).join(', ')}] that is not a JSON Schema (no schema keyword, an invalid type, or values that are not JSON data)`;
  }
  return `a ${typeof source}`;
}

/** The root-type rule MCP sets for arguments. */
function requireObjectRoot(jsonSchema: JsonSchema, fix: string): void {
  if (jsonSchema.type !== 'object') {
    throw new DecorumStartupError(
      StartupErrorCode.UNSUPPORTED_INPUT,
      `an arguments schema must have "type": "object" at its root (got ${JSON.stringify(jsonSchema.type) ?? 'none'}); ${fix}`,
    );
  }
}

/**
 * Compiles a schema source.
 *
 * @param source - a class-validator DTO class; a TypeBox 1.x schema (`Type.Object(...)`; a plain
 *   JSON Schema object literal is accepted the same way, as TypeBox compiles those too); or a
 *   Standard Schema V1 (zod ≥ 4.2, ArkType, valibot wrapped with `toStandardJsonSchema`, …) that
 *   implements Standard JSON Schema, validated by its own `~standard.validate`.
 * @param objectRoot - require `type: "object"` at the root, as MCP does for tool and prompt
 *   arguments (a DTO always is one); pass `false` for output schemas.
 * @param direction - which JSON Schema a Standard Schema lists: `input` (what callers send) or
 *   `output` (what its validation hands on, after transforms); defaults to `output` exactly
 *   when `objectRoot` is `false`, i.e. for a tool's output schema.
 * @throws DecorumStartupError with a message saying what was expected: `DECORUM_ERR_UNSUPPORTED_INPUT`
 *   when `source` is none of these or `objectRoot` is not met, a DTO's own code when it cannot be
 *   turned into a schema (see `inspectDto`), `DECORUM_ERR_NO_JSON_SCHEMA` for a Standard Schema
 *   without a JSON Schema.
 */
export function compileSchema(source: Function | object, objectRoot = true, direction: 'input' | 'output' = objectRoot ? 'input' : 'output'): CompiledSchema {
  const kind = KINDS.find((k) => k.accepts(source));
  if (kind === undefined) {
    throw new DecorumStartupError(
      StartupErrorCode.UNSUPPORTED_INPUT,
      'a schema must be a class-validator DTO class, a TypeBox schema (e.g. Type.Object({ ... })) or JSON Schema object literal, ' +
        `or a Standard Schema with a JSON Schema (zod ≥ 4.2, ArkType, valibot with toStandardJsonSchema); got ${describe(source)}`,
    );
  }
  const jsonSchema = deepFreeze(kind.toJsonSchema(source, direction));
  if (objectRoot && kind.objectRootFix !== undefined) requireObjectRoot(jsonSchema, kind.objectRootFix);
  const { strategy, validate } = kind.compile(source);
  return Object.freeze({ jsonSchema, strategy, validate });
}
