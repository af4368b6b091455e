/**
 * The restricted schema of form-mode elicitation (a flat object of primitives), made from a
 * plain schema, a class-validator DTO or a TypeBox object; and the check of accepted content
 * against it. What the subset cannot express is an error naming the property and keyword.
 */
import type { DtoClass } from '../decorators/metadata.js';
import { dtoToJsonSchema } from '../schema/dto/to-json-schema.js';
import { isTypeBoxSchema, typeBoxToJsonSchema } from '../schema/typebox/from-typebox.js';
import type { JsonSchema } from '../schema/json-schema.js';
import type { ValidationIssue } from '../schema/issues.js';
import { childPointer } from '../schema/issues.js';
import { isJsonObject } from '../protocol/json-object.js';

/** A form-mode `requestedSchema` of MCP 2026-07-28 (`PrimitiveSchemaDefinition` per property). */
export interface RequestedSchema {
  type: 'object';
  properties: Record<string, JsonSchema>;
  required?: string[];
  $schema?: string;
}

/** An elicitation schema source: the restricted schema itself, a DTO class or a TypeBox object. */
export type ElicitationSchemaSource = RequestedSchema | object | DtoClass;

/** Thrown when a schema cannot be expressed in the elicitation subset. */
export class ElicitationSchemaError extends Error {
  constructor(message: string) {
    super(`requestedSchema cannot be sent as an elicitation form: ${message}`);
    this.name = 'ElicitationSchemaError';
  }
}

const ANNOTATIONS = ['title', 'description'] as const;
const STRING_KEYS = new Set(['type', ...ANNOTATIONS, 'minLength', 'maxLength', 'format', 'default', 'enum', 'enumNames', 'oneOf']);
const NUMBER_KEYS = new Set(['type', ...ANNOTATIONS, 'minimum', 'maximum', 'default']);
const BOOLEAN_KEYS = new Set(['type', ...ANNOTATIONS, 'default']);
const ARRAY_KEYS = new Set(['type', ...ANNOTATIONS, 'items', 'minItems', 'maxItems', 'default', 'uniqueItems']);
const FORMATS = new Set(['email', 'uri', 'date', 'date-time']);
/** Keys dropped without loss: they constrain nothing a form could violate. */
const DROPPED = new Set(['$id', '$comment', 'examples', 'readOnly', 'writeOnly', 'deprecated']);

const cache = new WeakMap<object, RequestedSchema>();

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

function checkKeys(name: string, schema: JsonSchema, allowed: Set<string>): void {
  for (const key of Object.keys(schema)) {
    if (!allowed.has(key) && !DROPPED.has(key))
      throw new ElicitationSchemaError(`property "${name}" uses "${key}", which the flat primitive subset cannot express`);
  }
}

function pick(schema: JsonSchema, allowed: Set<string>): JsonSchema {
  return Object.fromEntries(Object.entries(schema).filter(([k]) => allowed.has(k) && k !== 'uniqueItems'));
}

/** One option of a union of string literals: `{ const, title? }`. */
interface ChoiceOption {
  const: string;
  title?: unknown;
}

function isChoiceOption(value: unknown): value is ChoiceOption {
  return typeof value === 'object' && value !== null && typeof (value as { const?: unknown }).const === 'string';
}

function isTitledOptions(value: unknown): value is Array<{ const: string; title: string }> {
  return Array.isArray(value) && value.every((o) => isChoiceOption(o) && typeof o.title === 'string');
}

/** Unions of string literals (TypeBox `Union([Literal…])`, `Enum`) as the subset's single-select forms. */
function normalizeChoice(schema: JsonSchema): JsonSchema {
  if (schema.type !== undefined) return schema;
  const { anyOf, oneOf, enum: values, ...rest } = schema;
  const options = (anyOf ?? oneOf) as unknown;
  if (isStringArray(values)) return { ...rest, type: 'string', enum: values };
  if (Array.isArray(options) && options.length > 0 && options.every(isChoiceOption)) {
    return isTitledOptions(options)
      ? { ...rest, type: 'string', oneOf: options.map((o) => ({ const: o.const, title: o.title })) }
      : { ...rest, type: 'string', enum: options.map((o) => o.const) };
  }
  return schema;
}

function primitive(name: string, input: JsonSchema): JsonSchema {
  if (typeof input !== 'object' || input === null) throw new ElicitationSchemaError(`property "${name}" is not a schema`);
  const schema = normalizeChoice(input);
  const type = schema.type;
  if (schema.$ref !== undefined || schema.properties !== undefined)
    throw new ElicitationSchemaError(`property "${name}" is a nested object; only top-level primitives are allowed`);
  switch (type) {
    case 'string': {
      checkKeys(name, schema, STRING_KEYS);
      if (schema.format !== undefined && !FORMATS.has(schema.format as string))
        throw new ElicitationSchemaError(`property "${name}" has format "${String(schema.format)}"; allowed: ${[...FORMATS].join(', ')}`);
      if (schema.enum !== undefined && !isStringArray(schema.enum)) throw new ElicitationSchemaError(`property "${name}" has a non-string enum`);
      if (schema.oneOf !== undefined && !isTitledOptions(schema.oneOf))
        throw new ElicitationSchemaError(`property "${name}" has "oneOf" that is not a list of { const, title } options`);
      return pick(schema, STRING_KEYS);
    }
    case 'number':
    case 'integer':
      checkKeys(name, schema, NUMBER_KEYS);
      return pick(schema, NUMBER_KEYS);
    case 'boolean':
      checkKeys(name, schema, BOOLEAN_KEYS);
      return pick(schema, BOOLEAN_KEYS);
    case 'array': {
      checkKeys(name, schema, ARRAY_KEYS);
      const rawItems = schema.items as JsonSchema | undefined;
      const items = rawItems && typeof rawItems === 'object' && !isTitledOptions(rawItems.anyOf) ? normalizeChoice(rawItems) : rawItems;
      const enumItems = items && items.type === 'string' && isStringArray(items.enum);
      const titledItems = items && isTitledOptions(items.anyOf);
      if (!enumItems && !titledItems)
        throw new ElicitationSchemaError(
          `property "${name}" is an array; only multi-select arrays of string enums (items.enum or items.anyOf of { const, title }) are allowed`,
        );
      const out = pick(schema, ARRAY_KEYS);
      out.items = enumItems ? { type: 'string', enum: items.enum } : { anyOf: items!.anyOf };
      return out;
    }
    default:
      throw new ElicitationSchemaError(
        `property "${name}" has type ${JSON.stringify(type)}; allowed: string, number, integer, boolean, or an array of string enums`,
      );
  }
}

/** The flat restricted form of a JSON Schema (throws {@link ElicitationSchemaError}). */
export function restrictSchema(schema: JsonSchema): RequestedSchema {
  if (schema.type !== 'object' || typeof schema.properties !== 'object' || schema.properties === null) {
    throw new ElicitationSchemaError('the root must be { "type": "object", "properties": { … } }');
  }
  for (const key of Object.keys(schema)) {
    if (!['type', 'properties', 'required', '$schema', '$defs', 'title', 'description', 'additionalProperties', ...DROPPED].includes(key)) {
      throw new ElicitationSchemaError(`the root uses "${key}", which the flat subset cannot express`);
    }
  }
  const properties: Record<string, JsonSchema> = {};
  for (const [name, sub] of Object.entries(schema.properties as Record<string, JsonSchema>)) properties[name] = primitive(name, sub);
  const out: RequestedSchema = { type: 'object', properties };
  if (schema.required !== undefined) {
    if (!isStringArray(schema.required)) throw new ElicitationSchemaError('"required" must be a list of property names');
    const unknown = schema.required.filter((r) => !(r in properties));
    if (unknown.length > 0) throw new ElicitationSchemaError(`"required" names unknown properties: ${unknown.join(', ')}`);
    if (schema.required.length > 0) out.required = [...schema.required];
  }
  if (typeof schema.$schema === 'string') out.$schema = schema.$schema;
  return out;
}

/**
 * The restricted schema of `source` (a plain schema, DTO class or TypeBox object), converted
 * once per source object and cached.
 */
export function toRequestedSchema(source: ElicitationSchemaSource): RequestedSchema {
  const cached = cache.get(source as object);
  if (cached) return cached;
  let json: JsonSchema;
  if (typeof source === 'function') json = dtoToJsonSchema(source);
  else if (isTypeBoxSchema(source)) json = typeBoxToJsonSchema(source);
  else throw new ElicitationSchemaError('expected a { type: "object" } schema, a class-validator DTO class or a TypeBox object');
  const restricted = Object.freeze(restrictSchema(json)) as RequestedSchema;
  cache.set(source as object, restricted);
  return restricted;
}

const FORMAT_CHECKS: Record<string, (v: string) => boolean> = {
  email: (v) => /^[^\s@]+@[^\s@]+$/.test(v),
  uri: (v) => URL.canParse(v),
  date: (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v)),
  'date-time': (v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(v) && !Number.isNaN(Date.parse(v)),
};

function checkValue(pointer: string, schema: JsonSchema, value: unknown, issues: ValidationIssue[]): void {
  const fail = (keyword: string, message: string): void => {
    issues.push({ pointer, keyword, message });
  };
  switch (schema.type) {
    case 'string': {
      if (typeof value !== 'string') return fail('type', 'must be a string');
      const options = isStringArray(schema.enum) ? schema.enum : isTitledOptions(schema.oneOf) ? schema.oneOf.map((o) => o.const) : undefined;
      if (options && !options.includes(value)) return fail(schema.enum ? 'enum' : 'oneOf', `must be one of ${options.join(', ')}`);
      if (typeof schema.minLength === 'number' && value.length < schema.minLength) fail('minLength', `must have at least ${schema.minLength} characters`);
      if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) fail('maxLength', `must have at most ${schema.maxLength} characters`);
      const format = schema.format as string | undefined;
      if (format && FORMAT_CHECKS[format] && !FORMAT_CHECKS[format](value)) fail('format', `must be a valid ${format}`);
      return;
    }
    case 'number':
    case 'integer':
      if (typeof value !== 'number' || !Number.isFinite(value)) return fail('type', `must be a ${schema.type}`);
      if (schema.type === 'integer' && !Number.isInteger(value)) return fail('type', 'must be an integer');
      if (typeof schema.minimum === 'number' && value < schema.minimum) fail('minimum', `must be ≥ ${schema.minimum}`);
      if (typeof schema.maximum === 'number' && value > schema.maximum) fail('maximum', `must be ≤ ${schema.maximum}`);
      return;
    case 'boolean':
      if (typeof value !== 'boolean') fail('type', 'must be a boolean');
      return;
    case 'array': {
      if (!isStringArray(value)) return fail('type', 'must be a list of strings');
      const items = schema.items as JsonSchema;
      const options = isStringArray(items.enum) ? items.enum : (items.anyOf as Array<{ const: string }>).map((o) => o.const);
      value.forEach(
        (v, i) => options.includes(v) || issues.push({ pointer: childPointer(pointer, i), keyword: 'enum', message: `must be one of ${options.join(', ')}` }),
      );
      if (typeof schema.minItems === 'number' && value.length < schema.minItems) fail('minItems', `must select at least ${schema.minItems}`);
      if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) fail('maxItems', `must select at most ${schema.maxItems}`);
      return;
    }
  }
}

/**
 * Checks accepted form content against its restricted schema. Unknown keys are dropped (the
 * returned content holds only declared properties); a missing required or ill-typed value is an issue.
 */
export function checkContent(
  schema: RequestedSchema,
  content: unknown,
): { ok: true; value: Record<string, unknown> } | { ok: false; issues: ValidationIssue[] } {
  if (!isJsonObject(content)) {
    return { ok: false, issues: [{ pointer: '', keyword: 'type', message: 'accepted content must be an object' }] };
  }
  const issues: ValidationIssue[] = [];
  const value: Record<string, unknown> = {};
  for (const [name, sub] of Object.entries(schema.properties)) {
    const given = (content as Record<string, unknown>)[name];
    const pointer = childPointer('', name);
    if (given === undefined) {
      if (schema.required?.includes(name)) issues.push({ pointer, keyword: 'required', message: 'is required' });
      continue;
    }
    checkValue(pointer, sub, given, issues);
    value[name] = given;
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value };
}
