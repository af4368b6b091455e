import { getMetadataStorage } from 'class-validator';
import { fieldKeys } from '../../decorators/field.js';

/**
 * True when `value` is a class with class-validator decorators or `@Field` (its own or inherited):
 * a DTO a parameter type can stand for, as opposed to any other class a handler may name.
 */
export function isDecoratedDto(value: unknown): value is Function {
  if (typeof value !== 'function' || typeof value.prototype !== 'object' || value.prototype === null) return false;
  return getMetadataStorage().getTargetValidationMetadatas(value, '', true, false).length > 0 || fieldKeys(value.prototype as object).length > 0;
}
