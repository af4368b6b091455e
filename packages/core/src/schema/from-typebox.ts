import type { JsonSchema } from './json-schema.js';

/** True for a TypeBox 1.x schema (they carry a non-enumerable `~kind`) or a plain JSON Schema object. */
export function isTypeBoxSchema(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return typeof (value as { '~kind'?: unknown })['~kind'] === 'string' || typeof (value as { type?: unknown }).type === 'string';
}

/** The pure JSON Schema 2020-12 of a TypeBox schema: TypeBox's markers are non-enumerable, so JSON drops them. */
export function typeBoxToJsonSchema(schema: object): JsonSchema {
  return JSON.parse(JSON.stringify(schema)) as JsonSchema;
}
