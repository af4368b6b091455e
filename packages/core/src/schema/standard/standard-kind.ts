/**
 * Standard Schema V1 sources (zod ≥ 4.2, ArkType, valibot wrapped with `toStandardJsonSchema`, …)
 * as a schema kind. Asked first: ArkType's schemas are functions, valibot's plain objects with a
 * `type` key, so the other kinds would take them for a class or a JSON Schema.
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { SchemaKind } from '../schema-kind.js';
import { hasStandardProps, standardToJsonSchema } from './from-standard-schema.js';
import { compileStandardValidator } from './standard-schema-validator.js';

export const standardKind: SchemaKind<StandardSchemaV1> = {
  // Anything with `~standard`: one that is not a usable Standard Schema is refused by toJsonSchema, with a hint.
  accepts: (source): source is StandardSchemaV1 => hasStandardProps(source),
  toJsonSchema: (schema, direction) => standardToJsonSchema(schema, direction),
  compile: (schema) => ({ strategy: 'standard-schema', validate: compileStandardValidator(schema) }),
  objectRootFix: 'use an object schema (z.object, v.object, type({ ... }))',
};
