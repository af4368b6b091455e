import { InvalidParamsError } from '../errors/protocol-errors.js';
import type { JsonObject } from '../protocol/types.js';
import { isJsonObject } from '../protocol/json-object.js';

/** A required string param, or a -32602 naming it. */
export function requireString(params: JsonObject, key: string, method: string, what: string): string {
  const value = params[key];
  if (typeof value !== 'string') throw new InvalidParamsError(`Invalid params: ${method} needs params.${key} (${what}, a string)`);
  return value;
}

/** An optional object param (`arguments`), or a -32602 naming it. */
export function optionalObject(params: JsonObject, key: string, method: string): JsonObject {
  const value = params[key];
  if (value === undefined) return {};
  if (!isJsonObject(value)) {
    throw new InvalidParamsError(`Invalid params: ${method} params.${key} must be an object when present`);
  }
  return value as JsonObject;
}
