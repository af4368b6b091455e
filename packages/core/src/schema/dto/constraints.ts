/**
 * The one table of the class-validator constraints Decorum understands: a row per constraint
 * name says what JSON Schema keywords it stands for (`emit`, read by schema generation), how a
 * failure of it reads as an issue (`issue`, read by the DTO validator), and when the schema alone
 * implies it (`implied`, read by the fast-path rule in `exact-schema.ts`). A constraint without a
 * row adds nothing to the schema, keeps class-validator's words, and keeps its DTO on class-validator.
 *
 * Built-in constraints are recognised by their registered names, so a custom decorator registered
 * under a built-in's name (`registerDecorator({ name: 'isString', … })`) would be taken for it.
 */
import type { getMetadataStorage } from 'class-validator';
import { toJsonData, type JsonSchema } from '../json-schema.js';
import { issueMessage } from '../issues.js';
import { isUnicodeNeutralPattern } from './unicode-neutral-pattern.js';

/** One class-validator record, as `getTargetValidationMetadatas` returns it. */
export type ValidationMetadata = ReturnType<ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']>[number];

/** The name class-validator reports a record under (`isString`, `min`, `nestedValidation`, …). */
export function constraintName(meta: ValidationMetadata): string {
  return meta.name ?? meta.type;
}

/** The values of a TS enum object: numeric enums also map values back to names, which are dropped. */
export function enumValues(meta: ValidationMetadata): unknown[] {
  if (Array.isArray(meta.constraints?.[1])) return [...(meta.constraints[1] as unknown[])];
  const entity = (meta.constraints?.[0] ?? {}) as Record<string, unknown>;
  return Object.entries(entity)
    .filter(([key]) => Number.isNaN(Number.parseInt(key, 10)))
    .map(([, value]) => value);
}

/** The `pattern` of a `@Matches` record (RegExp flags cannot travel in JSON Schema; the source does). */
export function matchesPattern(meta: ValidationMetadata): string {
  const [pattern, modifiers] = meta.constraints ?? [];
  if (pattern instanceof RegExp) return pattern.source;
  return new RegExp(String(pattern), typeof modifiers === 'string' ? modifiers : undefined).source;
}

/** Where records apply, as the fast-path rule sees it: a property's value, or each of its items. */
export interface Level {
  readonly schema: Readonly<JsonSchema>;
  /** The JSON type values here must have: the schema's `type`, or `object` for a nested DTO. */
  readonly type: string | undefined;
  /** The schema of the items, when the level is an array (for `@ArrayUnique`). */
  readonly items: Readonly<JsonSchema> | undefined;
  readonly records: readonly ValidationMetadata[];
}

/** A failed constraint as an issue: its JSON Schema keyword and the message. */
export type IssueWording = readonly [keyword: string, message: string];

/** What Decorum knows of one class-validator constraint. */
export interface ConstraintRow {
  /** The JSON type the constraint asserts (`@IsString` → `string`): emitted as `type`, reported as a `type` issue. */
  readonly type?: string;
  /** The JSON type the constraint only accepts, emitted as `type` when nothing else gave one (`@Min` → `number`). */
  readonly needs?: 'string' | 'number';
  /** The JSON Schema `format` it stands for (emitted, and reported as a `format` issue; never implied). */
  readonly format?: string;
  /** About the array itself, never about its items (unless `each`). */
  readonly arrayLevel?: boolean;
  /** Writes its keywords into the schema of the value the record applies to. */
  readonly emit?: (schema: JsonSchema, constraints: readonly unknown[], meta: ValidationMetadata) => void;
  /** Runs once after every record of a value was emitted (`@IsNotEmpty` needs the final type). */
  readonly finish?: (schema: JsonSchema) => void;
  /** The issue of a failure, when it is not a `type` or `format` one. */
  readonly issue?: (constraints: readonly unknown[], meta: ValidationMetadata | undefined, value: unknown, schemaType: string | undefined) => IssueWording;
  /** True when the schema at the record's level accepts nothing the constraint refuses (the rule of `exact-schema.ts`). */
  readonly implied?: (level: Level, constraints: readonly unknown[], meta: ValidationMetadata) => boolean;
  /** Only a listed set of values (`enum`/`const`) can imply it: each listed value is run through the constraint. */
  readonly listed?: boolean;
}

const isFiniteNumber = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);
/** A length or size both sides read alike (TypeBox's code doubles length limits with `<< 1`). */
const isSize = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0 && (n as number) < 2 ** 29;
const numeric = (level: Level) => level.type === 'number' || level.type === 'integer';
const atLeast = (limit: unknown, bound: number) => isFiniteNumber(limit) && limit >= bound;
const atMost = (limit: unknown, bound: number) => isFiniteNumber(limit) && limit <= bound;
const nonNull = (level: Level) => level.type !== undefined && level.type !== 'null';

/** The single JSON type of a list of enum values, if they share one. */
function commonType(values: readonly unknown[]): string | undefined {
  const types = new Set(values.map((v) => (typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : v === null ? 'null' : typeof v)));
  if (types.size === 1) return [...types][0];
  if (types.size === 2 && types.has('integer') && types.has('number')) return 'number';
  return undefined;
}

/** `enum` of the listed values, and their common type where the schema's type allows it. */
function emitEnum(schema: JsonSchema, values: unknown[]): void {
  schema.enum = values;
  const common = commonType(values);
  if (common !== undefined && (schema.type === undefined || schema.type === 'number' || schema.type === 'string')) schema.type = common;
}

const raiseMinItems = (schema: JsonSchema, n: number) => (schema.minItems = Math.max(n, (schema.minItems as number | undefined) ?? 0));

const ROWS: Readonly<Record<string, ConstraintRow>> = {
  isString: { type: 'string', implied: (l) => l.type === 'string' },
  isNumber: {
    type: 'number',
    implied: (l, [options]) => numeric(l) && (options as { maxDecimalPlaces?: unknown } | undefined)?.maxDecimalPlaces === undefined,
  },
  isInt: { type: 'integer', implied: (l) => l.type === 'integer' },
  isBoolean: { type: 'boolean', implied: (l) => l.type === 'boolean' },
  isArray: { type: 'array', arrayLevel: true, implied: (l) => l.type === 'array' },
  isObject: { type: 'object', implied: (l) => l.type === 'object' },
  // Only ever met in issues: `@ValidateNested` records never reach schema emission or the fast-path rule.
  nestedValidation: { type: 'object' },

  isEmail: { needs: 'string', format: 'email' },
  isUrl: { needs: 'string', format: 'uri' },
  isUuid: { needs: 'string', format: 'uuid' },
  isDateString: { needs: 'string', format: 'date-time' },
  isIso8601: { needs: 'string', format: 'date-time' },

  isIn: {
    listed: true,
    emit: (s, [values]) => emitEnum(s, [...((values as unknown[]) ?? [])]),
    issue: ([values]) => ['enum', issueMessage.enum((values as unknown[]) ?? [])],
  },
  isEnum: { listed: true, emit: (s, _, meta) => emitEnum(s, enumValues(meta)), issue: (_, meta) => ['enum', issueMessage.enum(meta ? enumValues(meta) : [])] },
  equals: {
    listed: true,
    emit: (s, [value]) => {
      const data = toJsonData(value);
      if (data !== undefined) s.const = data;
    },
    issue: ([value]) => ['const', issueMessage.const(value)],
  },

  min: {
    needs: 'number',
    emit: (s, [m]) => (s.minimum = m),
    issue: ([m]) => ['minimum', issueMessage.minimum(m)],
    implied: (l, [m]) => numeric(l) && isFiniteNumber(m) && atLeast(l.schema.minimum, m),
  },
  max: {
    needs: 'number',
    emit: (s, [m]) => (s.maximum = m),
    issue: ([m]) => ['maximum', issueMessage.maximum(m)],
    implied: (l, [m]) => numeric(l) && isFiniteNumber(m) && atMost(l.schema.maximum, m),
  },
  isPositive: {
    needs: 'number',
    emit: (s) => (s.exclusiveMinimum = 0),
    issue: () => ['exclusiveMinimum', issueMessage.exclusiveMinimum(0)],
    implied: (l) => numeric(l) && (atLeast(l.schema.exclusiveMinimum, 0) || (isFiniteNumber(l.schema.minimum) && l.schema.minimum > 0)),
  },
  isNegative: {
    needs: 'number',
    emit: (s) => (s.exclusiveMaximum = 0),
    issue: () => ['exclusiveMaximum', issueMessage.exclusiveMaximum(0)],
    implied: (l) => numeric(l) && (atMost(l.schema.exclusiveMaximum, 0) || (isFiniteNumber(l.schema.maximum) && l.schema.maximum < 0)),
  },
  isDivisibleBy: { needs: 'number', emit: (s, [n]) => (s.multipleOf = n), issue: ([n]) => ['multipleOf', issueMessage.multipleOf(n)] },

  minLength: {
    needs: 'string',
    emit: (s, [n]) => (s.minLength = n),
    issue: ([n]) => ['minLength', issueMessage.minLength(n as number)],
    implied: (l, [n]) => l.type === 'string' && isSize(n) && atLeast(l.schema.minLength, n),
  },
  maxLength: {
    needs: 'string',
    emit: (s, [n]) => (s.maxLength = n),
    issue: ([n]) => ['maxLength', issueMessage.maxLength(n as number)],
    implied: (l, [n]) => l.type === 'string' && isSize(n) && isSize(l.schema.maxLength) && l.schema.maxLength <= n,
  },
  isLength: {
    needs: 'string',
    emit: (s, [lo, hi]) => {
      if (typeof lo === 'number') s.minLength = lo;
      if (typeof hi === 'number') s.maxLength = hi;
    },
    issue: ([lo, hi], _, value) => {
      const tooShort = typeof value === 'string' && typeof lo === 'number' && value.length < lo;
      return tooShort || typeof hi !== 'number' ? ['minLength', issueMessage.minLength(lo as number)] : ['maxLength', issueMessage.maxLength(hi)];
    },
    implied: (l, [lo, hi]) =>
      l.type === 'string' &&
      (lo === undefined || (isSize(lo) && atLeast(l.schema.minLength, lo))) &&
      (hi === undefined || (isSize(hi) && atMost(l.schema.maxLength, hi))),
  },
  matches: {
    needs: 'string',
    emit: (s, _, meta) => (s.pattern = matchesPattern(meta)),
    issue: ([pattern], meta) => ['pattern', issueMessage.pattern(meta ? matchesPattern(meta) : String(pattern))],
    implied: (l, [pattern, modifiers], meta) =>
      l.type === 'string' &&
      (pattern instanceof RegExp ? pattern.flags === '' : typeof pattern === 'string' && (modifiers === undefined || modifiers === '')) &&
      l.schema.pattern === matchesPattern(meta) &&
      isUnicodeNeutralPattern(matchesPattern(meta)),
  },
  isNotEmpty: {
    // `@IsNotEmpty` rejects '' (and null/undefined); only for strings does JSON Schema say that.
    finish: (s) => {
      if (s.type === 'string') s.minLength = Math.max(1, (s.minLength as number | undefined) ?? 0);
    },
    issue: (_, __, value, schemaType) => (value === null ? ['type', issueMessage.type(schemaType ?? 'string')] : ['minLength', issueMessage.minLength(1)]),
    implied: (l) => nonNull(l) && (l.type !== 'string' || atLeast(l.schema.minLength, 1)),
  },
  isDefined: {
    issue: (_, __, value) => ['required', value === null ? 'must not be null' : issueMessage.required()],
    implied: nonNull,
  },

  arrayMinSize: {
    arrayLevel: true,
    emit: (s, [n]) => (s.minItems = n),
    issue: ([n]) => ['minItems', issueMessage.minItems(n as number)],
    implied: (l, [n]) => l.type === 'array' && isFiniteNumber(n) && atLeast(l.schema.minItems, n),
  },
  arrayMaxSize: {
    arrayLevel: true,
    emit: (s, [n]) => (s.maxItems = n),
    issue: ([n]) => ['maxItems', issueMessage.maxItems(n as number)],
    implied: (l, [n]) => l.type === 'array' && isFiniteNumber(n) && atMost(l.schema.maxItems, n),
  },
  arrayNotEmpty: {
    arrayLevel: true,
    emit: (s) => raiseMinItems(s, 1),
    issue: () => ['minItems', issueMessage.minItems(1)],
    implied: (l) => l.type === 'array' && atLeast(l.schema.minItems, 1),
  },
  arrayUnique: {
    arrayLevel: true,
    emit: (s) => (s.uniqueItems = true),
    issue: () => ['uniqueItems', issueMessage.uniqueItems()],
    // TypeBox hashes items, so it tells 0 from -0; class-validator compares with `===`.
    implied: (l, [identifier]) =>
      l.type === 'array' && identifier === undefined && l.schema.uniqueItems === true && (l.items?.type === 'string' || l.items?.type === 'boolean'),
  },
};

/** The row of a constraint name, or `undefined` for a constraint Decorum does not know. */
export function constraintRow(name: string): ConstraintRow | undefined {
  return Object.hasOwn(ROWS, name) ? ROWS[name] : undefined;
}

/** Applies the class-validator records of one value (a property, or each of its items) to `schema`. */
export function applyConstraints(schema: JsonSchema, metas: readonly ValidationMetadata[]): void {
  const finishers = new Set<(schema: JsonSchema) => void>();
  for (const meta of metas) {
    const row = constraintRow(constraintName(meta));
    if (row === undefined) continue; // enforced by class-validator, absent from the schema
    // `isInt` is the narrower claim: it wins over `isNumber` whatever the decorator order.
    if (row.type !== undefined && !(row.type === 'number' && schema.type === 'integer')) schema.type = row.type;
    if (row.needs !== undefined) schema.type ??= row.needs;
    if (row.format !== undefined) schema.format = row.format;
    row.emit?.(schema, meta.constraints ?? [], meta);
    if (row.finish) finishers.add(row.finish);
  }
  for (const finish of finishers) finish(schema);
}

/**
 * The keyword and message of one failed constraint (before the validator's own adjustments: a
 * value of the wrong type, or a message the DTO's author wrote), or `undefined` for a constraint
 * without a JSON Schema keyword, which keeps its name and class-validator's words.
 */
export function constraintIssue(name: string, meta: ValidationMetadata | undefined, value: unknown, schemaType: string | undefined): IssueWording | undefined {
  const row = constraintRow(name);
  if (row === undefined) return undefined;
  if (row.type !== undefined) return ['type', issueMessage.type(row.type)];
  if (row.format !== undefined) return ['format', issueMessage.format(row.format)];
  return row.issue?.(meta?.constraints ?? [], meta, value, schemaType);
}
