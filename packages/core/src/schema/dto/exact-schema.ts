/**
 * When a DTO's generated JSON Schema may stand in for class-validator: every class-validator
 * record of the DTO (and of every DTO nested under it) must be implied by the keywords the
 * schema carries at the same place, so that a value the schema accepts is a value class-validator
 * accepts. The converse is not needed — a value the schema refuses goes to class-validator, which
 * has the last word and the words for the issues.
 *
 * A record is implied when (the `implied` column of the constraint table, `constraints.ts`):
 *
 * - its type is the schema's (`@IsString` ↔ `type: string`, `@IsInt` ↔ `integer`, `@IsNumber`
 *   without `maxDecimalPlaces` ↔ `number`/`integer`, `@IsBoolean`, `@IsArray`, `@IsObject`);
 * - its bound is within the schema's (`@Min`/`@Max` ↔ `minimum`/`maximum`, `@IsPositive`,
 *   `@IsNegative`, `@MinLength`/`@MaxLength`/`@Length` ↔ `minLength`/`maxLength`,
 *   `@ArrayMinSize`/`@ArrayMaxSize`/`@ArrayNotEmpty` ↔ `minItems`/`maxItems`), on a schema of the
 *   type the record needs;
 * - `@IsNotEmpty`/`@IsDefined`: the schema has a type that excludes `null` (and `''`);
 * - `@Matches`: no flags, the same `pattern`, and a pattern that accepts nothing more with the `u`
 *   flag JSON Schema validators add (see `isUnicodeNeutralPattern`);
 * - `@ArrayUnique` without an identifier, over strings or booleans (TypeBox hashes items, so it
 *   tells 0 from -0; class-validator compares with `===`);
 * - where the schema lists the values (`enum`/`const`: `@IsIn`, `@IsEnum`, `@Equals`), each listed
 *   value — all JSON scalars — passes every record there, checked here by running the records.
 *
 * Anything else keeps the DTO on class-validator: custom constraints (`@Validate`,
 * `registerDecorator`), `@ValidateIf` and the `validateIf` option, `groups`/`always`, formats
 * (`@IsEmail`, `@IsUrl`, … — their checks are not JSON Schema's), `@IsDivisibleBy`, and any
 * record the schema leaves out. Messages do not matter: the schema only ever decides "valid".
 *
 * One keyword is added to the schema compiled for the check: validator.js counts a character
 * followed by a variation selector (U+FE0E/U+FE0F) as one, JSON Schema as two, so where a minimum
 * length comes from `@MinLength`/`@Length`, strings with those selectors are left to class-validator.
 */
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import type { JsonSchema } from '../json-schema.js';
import { constraintName, constraintRow, type Level, type ValidationMetadata } from './constraints.js';
import { dtoTreeProperties, inspectDto, type DtoProperty } from './inspect.js';
import { dtoToJsonSchema } from './to-json-schema.js';

/** The schema to check values with, or why the DTO keeps class-validator. */
export type ExactSchema = { readonly schema: JsonSchema; readonly reason?: undefined } | { readonly schema?: undefined; readonly reason: string };

const isFiniteNumber = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);

const DECORATOR_NAMES: Readonly<Record<string, string>> = {
  [ValidationTypes.CUSTOM_VALIDATION]: 'Validate',
  [ValidationTypes.CONDITIONAL_VALIDATION]: 'ValidateIf',
  [ValidationTypes.WHITELIST]: 'Allow',
  [ValidationTypes.PROMISE_VALIDATION]: 'ValidatePromise',
  isLength: 'Length',
};

/** The decorator a record comes from, as an author wrote it (`min` → `@Min`). */
function decorator(meta: ValidationMetadata): string {
  const name = constraintName(meta);
  return `@${DECORATOR_NAMES[name] ?? name.charAt(0).toUpperCase() + name.slice(1)}`;
}

/** The one constraint class-validator runs for a built-in record, if the record is one. */
function builtIn(meta: ValidationMetadata) {
  const name = constraintName(meta);
  const row = constraintRow(name);
  if (row?.implied === undefined && row?.listed !== true) return undefined;
  const constraints = getMetadataStorage().getTargetValidatorConstraints(meta.constraintCls);
  return constraints.length === 1 && constraints[0].name === name && constraints[0].async !== true ? constraints[0] : undefined;
}

const isScalar = (value: unknown) => value === null || typeof value === 'string' || typeof value === 'boolean' || isFiniteNumber(value);

/** The values a schema lists (`enum`, else `const`), if it lists them. */
function listedValues(schema: Readonly<JsonSchema>): readonly unknown[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum;
  return 'const' in schema ? [schema.const] : undefined;
}

/** Why the records of one level are not implied by its schema, or `undefined` when they are. */
function levelReason(level: Level, nested: boolean): string | undefined {
  const listed = listedValues(level.schema);
  // TypeBox compares listed scalars with `===`, so it also takes -0 where 0 is listed.
  const values = listed && (listed.includes(0) ? [...listed, -0] : listed);
  if (values && (nested || !values.every(isScalar))) return 'lists values that are not all JSON scalars';
  for (const meta of level.records) {
    const constraint = builtIn(meta);
    if (constraint === undefined) return `${decorator(meta)} has no JSON Schema counterpart that accepts the same values`;
    const args = meta.constraints ?? [];
    if (values) {
      const accepts = (value: unknown) => {
        try {
          return constraint.instance.validate(value, { value, constraints: args, targetName: '', object: {}, property: meta.propertyName }) === true;
        } catch {
          return false;
        }
      };
      if (!values.every(accepts)) return `${decorator(meta)} refuses a value the schema lists`;
    } else {
      const row = constraintRow(constraintName(meta));
      if (row?.listed === true || row?.implied?.(level, args, meta) !== true) return `${decorator(meta)} is not implied by the schema's keywords`;
    }
  }
  return undefined;
}

/** The value's level and the items' level of one property, with the records of each. */
function levelsOf(property: DtoProperty): [self: Level, items: Level] {
  const checked = [...property.constraints.values()]
    .flat()
    .filter((m) => m.type === ValidationTypes.CUSTOM_VALIDATION || m.type === ValidationTypes.IS_DEFINED);
  const typeOf = (schema: Readonly<JsonSchema> | undefined, nested: boolean) =>
    typeof schema?.type === 'string' ? schema.type : nested ? 'object' : undefined;
  const nested = property.nested;
  return [
    {
      schema: property.self,
      type: typeOf(property.self, nested !== undefined && !nested.array),
      items: property.items,
      records: checked.filter((m) => m.each !== true),
    },
    { schema: property.items ?? {}, type: typeOf(property.items, nested?.array === true), items: undefined, records: checked.filter((m) => m.each === true) },
  ];
}

/** Record types this rule knows; `@Allow` and `@ValidatePromise` are left to class-validator. */
const KNOWN_TYPES = new Set<string>([
  ValidationTypes.CUSTOM_VALIDATION,
  ValidationTypes.IS_DEFINED,
  ValidationTypes.CONDITIONAL_VALIDATION,
  ValidationTypes.NESTED_VALIDATION,
]);

/** Why one property keeps class-validator, or `undefined` when its schema says it all. */
function propertyReason(property: DtoProperty): string | undefined {
  for (const meta of [...property.constraints.values()].flat()) {
    if (meta.groups?.length) return `${decorator(meta)} has groups`;
    if (meta.always !== undefined) return `${decorator(meta)} has the always option`;
    if ((meta as { validateIf?: unknown }).validateIf !== undefined) return `${decorator(meta)} has a validateIf condition`;
    if (meta.type === ValidationTypes.CONDITIONAL_VALIDATION && constraintName(meta) !== 'isOptional') return '@ValidateIf decides at run time';
    if (!KNOWN_TYPES.has(meta.type)) return `${decorator(meta)} has no JSON Schema counterpart`;
  }
  const [self, items] = levelsOf(property);
  return levelReason(self, property.nested?.array === false) ?? levelReason(items, property.nested?.array === true);
}

/** True when a minimum length at this level comes from validator.js (see the file comment). */
function needsSelectorGuard(level: Level): boolean {
  if (listedValues(level.schema)) return false;
  return level.records.some((m) => {
    const name = constraintName(m);
    return (name === 'minLength' || name === 'isLength') && isFiniteNumber(m.constraints?.[0]) && m.constraints[0] > 0;
  });
}

const SELECTOR_GUARD: Readonly<JsonSchema> = Object.freeze({ not: Object.freeze({ pattern: '[\\uFE0E\\uFE0F]' }) });

/** `dtoToJsonSchema(cls)` with the selector guard added where `needsSelectorGuard` says. */
function checkSchema(cls: Function): JsonSchema {
  const root = dtoToJsonSchema(cls);
  const defs = (root.$defs ?? {}) as Record<string, JsonSchema>;
  const seen = new Set<Function>();
  const visit = (schema: JsonSchema, c: Function) => {
    if (seen.has(c)) return;
    seen.add(c);
    const properties = schema.properties as Record<string, JsonSchema>;
    for (const property of inspectDto(c).properties) {
      const own = { ...properties[property.name] };
      const [self, items] = levelsOf(property);
      if (needsSelectorGuard(self)) Object.assign(own, SELECTOR_GUARD);
      if (needsSelectorGuard(items)) own.items = { ...(own.items as JsonSchema), ...SELECTOR_GUARD };
      properties[property.name] = own;
      if (property.nested === undefined) continue;
      const ref = ((property.items !== undefined ? own.items : own) as JsonSchema).$ref as string;
      visit(ref === '#' ? root : defs[ref.slice('#/$defs/'.length)], property.nested.cls);
    }
  };
  visit(root, cls);
  return root;
}

/**
 * Decides, once per DTO class, whether its JSON Schema may decide validity in class-validator's
 * place (the rule is in the file comment), for the class and every DTO nested under it.
 *
 * @param cls - a class-validator DTO class (inspected with `inspectDto`).
 * @returns `{ schema }`, the JSON Schema to compile for the check, or `{ reason }`, naming the
 *   first property and decorator that keeps the DTO on class-validator.
 * @throws DecorumStartupError as `inspectDto` does.
 */
export function exactSchema(cls: Function): ExactSchema {
  for (const { cls: owner, property } of dtoTreeProperties(cls)) {
    const reason = propertyReason(property);
    if (reason !== undefined) return { reason: `${owner.name}.${property.name}: ${reason}` };
  }
  return { schema: checkSchema(cls) };
}
