/** A JSON Schema (2020-12) document or subschema, as plain JSON. */
export type JsonSchema = Record<string, unknown>;
