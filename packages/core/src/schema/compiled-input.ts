import { compileDtoValidator } from '../validation/dto-validator.js';
import type { ValidationOutcome } from '../validation/issues.js';
import { compileTypeBoxValidator } from '../validation/typebox-validator.js';
import { dtoToJsonSchema } from './from-dto.js';
import { isTypeBoxSchema, typeBoxToJsonSchema } from './from-typebox.js';
import type { JsonSchema } from './json-schema.js';

/** A schema ready to serve: its JSON Schema for listings and a validator built once. */
export interface CompiledSchema {
  readonly jsonSchema: JsonSchema;
  validate(value: unknown): Promise<ValidationOutcome>;
}

/**
 * Compiles a DTO class or a TypeBox (or plain JSON) schema. Everything but the per-request
 * check happens here. `objectRoot` enforces MCP's rule that tool arguments are an object.
 */
export function compileSchema(source: Function | object, objectRoot = true): CompiledSchema {
  if (typeof source === 'function') {
    const jsonSchema = Object.freeze(dtoToJsonSchema(source));
    const check = compileDtoValidator(source);
    return { jsonSchema, validate: check };
  }
  if (!isTypeBoxSchema(source)) throw new Error('a schema must be a class-validator DTO class or a TypeBox schema');
  const jsonSchema = Object.freeze(typeBoxToJsonSchema(source));
  if (objectRoot && jsonSchema.type !== 'object') throw new Error(`an input schema must have "type": "object" at its root (got ${JSON.stringify(jsonSchema.type)})`);
  const check = compileTypeBoxValidator(source);
  return { jsonSchema, validate: async (value) => check(value) };
}
