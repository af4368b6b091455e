/** TypeBox 1.x schemas and plain JSON Schema object literals (TypeBox compiles both) as a schema kind. */
import type { SchemaKind } from '../schema-kind.js';
import { isTypeBoxSchema, typeBoxToJsonSchema } from './from-typebox.js';
import { compileTypeBoxValidator } from './typebox-validator.js';

export const typeBoxKind: SchemaKind<object> = {
  accepts: (source): source is object => typeof source !== 'function' && isTypeBoxSchema(source),
  toJsonSchema: (schema) => typeBoxToJsonSchema(schema),
  compile: (schema) => ({ strategy: 'typebox', validate: compileTypeBoxValidator(schema) }),
  objectRootFix: 'use Type.Object({ ... })',
};
