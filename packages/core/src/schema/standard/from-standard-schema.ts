/**
 * Standard Schema (https://standardschema.dev) sources: zod ≥ 4, valibot, ArkType and any other
 * library whose schemas carry `~standard` with `version: 1`. Such a schema validates by itself
 * (`~standard.validate`), but MCP lists a JSON Schema, which only the Standard JSON Schema
 * interface (`~standard.jsonSchema.input/output`) gives; a schema without it is refused at
 * start-up with a hint for its library, never listed as an empty or made-up schema.
 */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { DecorumStartupError, StartupErrorCode } from '../../errors/startup-error.js';
import { toJsonData, type JsonSchema } from '../json-schema.js';
import { isJsonObject } from '../../protocol/json-object.js';

/** The JSON Schema dialect MCP tool and prompt schemas default to (Standard JSON Schema's target name for it). */
const TARGET = 'draft-2020-12';

/** The `$schema` URIs of 2020-12, as libraries write them. */
const DIALECT_URIS = new Set(['https://json-schema.org/draft/2020-12/schema', 'https://json-schema.org/draft/2020-12/schema#']);

/** True for anything that carries a `~standard` property (object or function, as ArkType's types are). */
export function hasStandardProps(value: unknown): value is { '~standard': unknown } {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && '~standard' in value;
}

/** True for a Standard Schema V1: `~standard.version` is 1 and it has a `validate` function. */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if (!hasStandardProps(value)) return false;
  const props = value['~standard'] as Partial<StandardSchemaV1.Props> | null;
  return typeof props === 'object' && props !== null && props.version === 1 && typeof props.validate === 'function';
}

/** How to get a JSON Schema out of a library's schemas, for the start-up error. */
const HINTS: Record<string, string> = {
  valibot: "wrap it with toStandardJsonSchema from '@valibot/to-json-schema' (input: toStandardJsonSchema(v.object({ ... })))",
  zod: "zod 3 schemas have none: use zod 4.2 or later (import { z } from 'zod'), whose schemas implement it",
};
const GENERIC_HINT =
  'use a version of its library that implements Standard JSON Schema (https://standardschema.dev/json-schema), or pass a TypeBox schema or a DTO class';

/**
 * The JSON Schema 2020-12 of a Standard Schema, for the side MCP lists: `input` for arguments,
 * `output` for a tool's `outputSchema` (what validation hands on, after transforms).
 *
 * @throws DecorumStartupError `DECORUM_ERR_NO_JSON_SCHEMA` when the schema has no Standard JSON
 *   Schema converter (the message says how to get one for its library), and
 *   `DECORUM_ERR_UNSUPPORTED_INPUT` when it is of another version, when the converter throws
 *   (a type JSON Schema cannot express) or returns something that is not JSON data.
 */
export function standardToJsonSchema(schema: unknown, direction: 'input' | 'output'): JsonSchema {
  const props = (schema as { '~standard': Partial<StandardSchemaV1.Props & StandardJSONSchemaV1.Props> })['~standard'];
  const vendor = typeof props?.vendor === 'string' ? props.vendor : 'an unknown library';
  if (!isStandardSchema(schema)) {
    throw new DecorumStartupError(
      StartupErrorCode.UNSUPPORTED_INPUT,
      `a ${vendor} schema whose ~standard is not Standard Schema version 1 with a validate function (version: ${JSON.stringify(props?.version)})`,
    );
  }
  const convert = props.jsonSchema?.[direction];
  if (typeof convert !== 'function') {
    throw new DecorumStartupError(
      StartupErrorCode.NO_JSON_SCHEMA,
      `this ${vendor} Standard Schema offers no JSON Schema (no ~standard.jsonSchema, the Standard JSON Schema interface), which MCP needs to list it: ${HINTS[vendor] ?? GENERIC_HINT}`,
    );
  }
  let produced: unknown;
  try {
    produced = convert({ target: TARGET });
  } catch (error) {
    throw new DecorumStartupError(
      StartupErrorCode.UNSUPPORTED_INPUT,
      `this ${vendor} schema cannot be expressed as JSON Schema (${direction}): ${(error as Error).message}`,
    );
  }
  const json = toJsonData(produced);
  if (!isJsonObject(json)) {
    throw new DecorumStartupError(StartupErrorCode.UNSUPPORTED_INPUT, `the JSON Schema this ${vendor} schema produced is not a JSON object`);
  }
  // 2020-12 is MCP's default dialect, and DTO and TypeBox schemas do not name it either; a client
  // whose validator defaults to another draft (Ajv's draft-07) fails on a `$schema` it lacks.
  const { $schema, ...rest } = json as JsonSchema;
  return typeof $schema === 'string' && DIALECT_URIS.has($schema) ? rest : (json as JsonSchema);
}
