/** class-validator DTO classes as a schema kind: any class (a function with a prototype object). */
import type { SchemaKind } from '../schema-kind.js';
import { dtoToJsonSchema } from './to-json-schema.js';
import { compileDtoValidator } from './validator.js';

export const dtoKind: SchemaKind<Function> = {
  accepts: (source): source is Function => typeof source === 'function' && typeof source.prototype === 'object' && source.prototype !== null,
  toJsonSchema: (cls) => dtoToJsonSchema(cls),
  compile(cls) {
    const validate = compileDtoValidator(cls);
    return { strategy: validate.strategy, validate };
  },
  objectRootFix: undefined,
};
