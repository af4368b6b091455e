/**
 * JSON Schema 2020-12 from class-validator DTOs: the property design types (reflect-metadata)
 * plus class-validator's metadata, plus `@Field` for what class-validator cannot say.
 *
 * Hand-written rather than class-validator-jsonschema: that library emits OpenAPI 3.0-flavoured
 * schemas under `#/definitions`, keys definitions globally by class name (two DTOs with the same
 * name collide) and rescans the whole metadata storage on every call. Decorators this mapper does
 * not know still run at validation time; they only add nothing to the schema.
 */
import 'reflect-metadata';
import { getMetadataStorage } from 'class-validator';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage.js';
import { fieldOptions } from './field.js';
import type { JsonSchema } from './json-schema.js';

interface ValidationMetadataLike {
  type: string;
  name?: string;
  propertyName: string;
  constraints?: unknown[];
  each?: boolean;
}

/** Nested DTOs collected while generating one root schema. */
class Definitions {
  private readonly byClass = new Map<Function, string>();
  private readonly names = new Set<string>();
  readonly schemas: Record<string, JsonSchema> = {};

  constructor(private readonly root: Function) {}

  /** A `$ref` to `cls`, generating its definition the first time (recursion ends at the ref). */
  ref(cls: Function): JsonSchema {
    if (cls === this.root) return { $ref: '#' };
    let name = this.byClass.get(cls);
    if (name === undefined) {
      name = cls.name || 'Anonymous';
      for (let n = 2; this.names.has(name); n++) name = `${cls.name}_${n}`;
      this.names.add(name);
      this.byClass.set(cls, name);
      this.schemas[name] = {};
      Object.assign(this.schemas[name], objectSchema(cls, this));
    }
    return { $ref: `#/$defs/${name}` };
  }
}

const NOT_A_DTO = new Set<unknown>([Object, String, Number, Boolean, Array, Date, Function, Promise, Map, Set]);

function isDtoClass(value: unknown): value is Function {
  return typeof value === 'function' && !NOT_A_DTO.has(value);
}

function enumValues(constraints: unknown[] | undefined): unknown[] {
  const entity = (constraints?.[0] ?? {}) as Record<string, unknown>;
  // Numeric TS enums also map each value back to its name ("0" → "Red"); skip those keys.
  return Object.keys(entity)
    .filter((key) => !(/^-?\d+$/.test(key) && typeof entity[entity[key] as string] === 'number'))
    .map((key) => entity[key]);
}

function primitiveType(values: unknown[]): string | undefined {
  const types = new Set(values.map((v) => (typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v)));
  if (types.size === 1) return [...types][0] === 'integer' ? 'integer' : [...types][0];
  if ([...types].every((t) => t === 'integer' || t === 'number')) return 'number';
  return undefined;
}

/** Applies one class-validator constraint to a (sub)schema. */
function applyConstraint(schema: JsonSchema, meta: ValidationMetadataLike, defs: Definitions, nestedType: Function | undefined): void {
  const c = meta.constraints ?? [];
  switch (meta.name) {
    case 'isString':
      schema.type = 'string';
      break;
    case 'isInt':
      schema.type = 'integer';
      break;
    case 'isNumber':
      schema.type ??= 'number';
      break;
    case 'isBoolean':
      schema.type = 'boolean';
      break;
    case 'isIn': {
      const values = (c[0] as unknown[]) ?? [];
      schema.enum = [...values];
      const type = primitiveType(values);
      if (type) schema.type = type;
      break;
    }
    case 'isEnum': {
      const values = enumValues(c);
      schema.enum = values;
      const type = primitiveType(values);
      if (type) schema.type = type;
      break;
    }
    case 'min':
      schema.minimum = c[0];
      break;
    case 'max':
      schema.maximum = c[0];
      break;
    case 'isPositive':
      schema.exclusiveMinimum = 0;
      break;
    case 'isNegative':
      schema.exclusiveMaximum = 0;
      break;
    case 'minLength':
      schema.minLength = c[0];
      break;
    case 'maxLength':
      schema.maxLength = c[0];
      break;
    case 'isLength':
      if (typeof c[0] === 'number') schema.minLength = c[0];
      if (typeof c[1] === 'number') schema.maxLength = c[1];
      break;
    case 'isNotEmpty':
      if (schema.type === 'string' || schema.type === undefined) schema.minLength = Math.max(1, (schema.minLength as number | undefined) ?? 0);
      break;
    case 'matches': {
      const pattern = c[0] instanceof RegExp ? c[0].source : String(c[0]);
      schema.pattern = pattern;
      schema.type ??= 'string';
      break;
    }
    case 'isEmail':
      Object.assign(schema, { type: 'string', format: 'email' });
      break;
    case 'isUrl':
      Object.assign(schema, { type: 'string', format: 'uri' });
      break;
    case 'isUuid':
      Object.assign(schema, { type: 'string', format: 'uuid' });
      break;
    case 'isDateString':
    case 'isIso8601':
      Object.assign(schema, { type: 'string', format: 'date-time' });
      break;
    default:
      if (meta.type === 'nestedValidation' && nestedType) Object.assign(schema, defs.ref(nestedType));
  }
}

const ARRAY_LEVEL = new Set(['isArray', 'arrayMinSize', 'arrayMaxSize', 'arrayNotEmpty', 'arrayUnique']);

function propertySchema(cls: Function, property: string, metas: ValidationMetadataLike[], defs: Definitions, initial: unknown): JsonSchema {
  const prototype = cls.prototype as object;
  const designType = Reflect.getMetadata('design:type', prototype, property) as unknown;
  const declared = defaultMetadataStorage.findTypeMetadata(cls, property)?.typeFunction?.();
  const nestedType = isDtoClass(declared) ? declared : isDtoClass(designType) ? designType : undefined;
  const isArray = designType === Array || metas.some((m) => m.each || m.name === 'isArray');
  const schema: JsonSchema = {};
  const item: JsonSchema = {};
  for (const meta of metas) {
    if (meta.type === 'conditionalValidation' || meta.type === 'isDefined') continue;
    if (isArray && ARRAY_LEVEL.has(meta.name ?? '')) {
      if (meta.name === 'arrayMinSize') schema.minItems = meta.constraints?.[0];
      if (meta.name === 'arrayMaxSize') schema.maxItems = meta.constraints?.[0];
      if (meta.name === 'arrayNotEmpty') schema.minItems = 1;
      if (meta.name === 'arrayUnique') schema.uniqueItems = true;
      continue;
    }
    applyConstraint(isArray && (meta.each || meta.type === 'nestedValidation') ? item : isArray ? item : schema, meta, defs, nestedType);
  }
  if (isArray) {
    schema.type = 'array';
    if (Object.keys(item).length === 0 && nestedType) Object.assign(item, defs.ref(nestedType));
    if (Object.keys(item).length > 0) schema.items = item;
  } else if (schema.type === undefined && schema.$ref === undefined && schema.enum === undefined) {
    if (designType === String) schema.type = 'string';
    else if (designType === Number) schema.type = 'number';
    else if (designType === Boolean) schema.type = 'boolean';
    else if (nestedType) Object.assign(schema, defs.ref(nestedType));
  }
  const field = fieldOptions(prototype, property);
  if (field?.title !== undefined) schema.title = field.title;
  if (field?.description !== undefined) schema.description = field.description;
  const fallback = field?.default !== undefined ? field.default : initial;
  if (fallback !== undefined) schema.default = fallback;
  if (field?.examples !== undefined) schema.examples = field.examples;
  if (field?.mcpHeader !== undefined) schema['x-mcp-header'] = field.mcpHeader;
  return schema;
}

function objectSchema(cls: Function, defs: Definitions): JsonSchema {
  const all = getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false) as unknown as ValidationMetadataLike[];
  let instance: Record<string, unknown> = {};
  try {
    instance = new (cls as new () => Record<string, unknown>)();
  } catch {
    // A DTO whose constructor needs arguments simply contributes no initializer defaults.
  }
  const order = [...Object.keys(instance), ...all.map((m) => m.propertyName)];
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const property of new Set(order)) {
    // class-validator lists a property's decorators bottom-up; apply them in source order.
    const metas = all.filter((m) => m.propertyName === property).reverse();
    if (metas.length === 0 && fieldOptions(cls.prototype as object, property) === undefined) continue;
    properties[property] = propertySchema(cls, property, metas, defs, instance[property]);
    const optional = metas.some((m) => m.type === 'conditionalValidation') || instance[property] !== undefined || fieldOptions(cls.prototype as object, property)?.default !== undefined;
    if (!optional) required.push(property);
  }
  const schema: JsonSchema = { type: 'object', properties };
  if (required.length > 0) schema.required = required;
  return schema;
}

/** The JSON Schema 2020-12 of a DTO class; nested DTOs go to `$defs`. */
export function dtoToJsonSchema(cls: Function): JsonSchema {
  const defs = new Definitions(cls);
  const schema = objectSchema(cls, defs);
  if (Object.keys(defs.schemas).length > 0) schema.$defs = defs.schemas;
  return schema;
}
