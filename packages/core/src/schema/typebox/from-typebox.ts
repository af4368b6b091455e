/**
 * TypeBox 1.x schemas as JSON Schema. TypeBox 1.x builds plain JSON Schema objects and marks
 * them with TypeBox-only properties whose names start with `~` (`~kind` on every type,
 * `~optional`, `~readonly`, `~refine`, `~codec` where used). They are non-enumerable by default,
 * but `Settings.Set({ enumerableKind: true })` makes them enumerable, so a JSON round trip alone
 * is not enough: they are dropped by name. The one draft-07 spelling TypeBox still emits (tuples)
 * is rewritten to 2020-12.
 */
import { toJsonData, type JsonSchema } from '../json-schema.js';
import { isJsonObject as isRecord } from '../../protocol/json-object.js';

/** Keywords whose value is data, not a subschema: a `~` key inside them is the user's data. */
const DATA_KEYWORDS = new Set(['default', 'const', 'enum', 'examples']);

/** Keywords under which TypeBox schemas may appear (a plain JSON Schema needs one of them). */
const SCHEMA_KEYWORDS = ['type', '$ref', 'anyOf', 'oneOf', 'allOf', 'not', 'enum', 'const', 'properties', 'items'];

/** The names JSON Schema's `type` keyword takes. */
const TYPE_NAMES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** True when `type` is absent, a JSON Schema type name, or a list of them. */
function validType(type: unknown): boolean {
  if (type === undefined) return true;
  return (typeof type === 'string' ? [type] : Array.isArray(type) ? type : [null]).every((t) => TYPE_NAMES.has(t as string));
}

/**
 * True for a TypeBox 1.x schema — any object carrying TypeBox's `~kind` marker (the test TypeBox's
 * own `IsKind` makes) — and for a plain JSON Schema object, which TypeBox 1.x compiles the same
 * way. "Plain" is strict, so that another library's schema is never mistaken for JSON Schema
 * (zod 4 schemas have a `type` property, valibot's are plain objects with `type` and functions):
 * an object literal (prototype `Object.prototype` or `null`) that is JSON data throughout, has a
 * schema keyword and, if it has `type`, a valid one; never anything carrying `~standard`.
 */
export function isTypeBoxSchema(value: unknown): boolean {
  if (!isRecord(value) || '~standard' in value) return false;
  if (typeof value['~kind'] === 'string') return true;
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return false;
  if (!SCHEMA_KEYWORDS.some((keyword) => Object.prototype.hasOwnProperty.call(value, keyword))) return false;
  return validType(value.type) && toJsonData(value) !== undefined;
}

/** Keywords whose value maps names (property names, definition names) to subschemas. */
const NAME_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

type Mode = 'schema' | 'names' | 'data';

function strip(value: unknown, mode: Mode): unknown {
  if (Array.isArray(value)) return value.map((item) => strip(item, mode));
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  // Object.keys: own enumerable string keys, so symbols and non-enumerable markers never get here.
  for (const key of Object.keys(value)) {
    if (mode === 'schema' && key.startsWith('~')) continue;
    const child = value[key];
    if (typeof child === 'function' || typeof child === 'symbol' || child === undefined) continue;
    const next: Mode = mode === 'data' ? 'data' : mode === 'names' ? 'schema' : DATA_KEYWORDS.has(key) ? 'data' : NAME_MAPS.has(key) ? 'names' : 'schema';
    out[key] = strip(child, next);
  }
  return mode === 'schema' ? tupleTo2020(out) : out;
}

/**
 * TypeBox 1.x writes tuples the draft-07 way (`items: [...]`, `additionalItems`), which 2020-12
 * spells `prefixItems` and `items`; a 2020-12 validator would reject the array form outright.
 */
function tupleTo2020(schema: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(schema.items)) return schema;
  const { items, additionalItems, ...rest } = schema;
  return { ...rest, prefixItems: items, ...(additionalItems !== undefined ? { items: additionalItems } : {}) };
}

/**
 * The pure JSON Schema 2020-12 of a TypeBox schema: a deep copy without TypeBox's `~` markers
 * (kept inside `default`, `const`, `enum` and `examples`, where they are data).
 *
 * @param schema - a TypeBox 1.x schema (or plain JSON Schema object).
 * @returns a fresh object the caller may freeze or keep.
 */
export function typeBoxToJsonSchema(schema: object): JsonSchema {
  return strip(schema, 'schema') as JsonSchema;
}
