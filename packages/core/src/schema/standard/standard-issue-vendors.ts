/**
 * What each schema library's Standard Schema issues carry beyond the spec's `message` and `path`:
 * their own code (`code` in zod and ArkType, `type` in valibot), mapped here to the JSON Schema
 * keyword it names, so that a zod `too_small` and a TypeBox `minimum` read the same to a model
 * (anything else is `schema`); and, for ArkType, a message without the path in front.
 */

/** A lower or upper bound: `minimum`, `minLength` or `minItems` (and `max…`) by the failing value's type. */
const MIN = Symbol('min');
const MAX = Symbol('max');
type Row = string | typeof MIN | typeof MAX;

/**
 * Per library (`~standard.vendor`): the field holding its issue code, code → keyword, and where the
 * message reads without the path in front (ArkType's `message` is "n must be…", its `problem` "must be…").
 */
const VENDORS: Record<string, { field: string; codes: Record<string, Row>; bareMessage?: string }> = {
  zod: {
    field: 'code',
    codes: {
      invalid_type: 'type',
      too_small: MIN,
      too_big: MAX,
      not_multiple_of: 'multipleOf',
      unrecognized_keys: 'additionalProperties',
      invalid_value: 'enum',
      invalid_union: 'anyOf',
      invalid_format: 'format',
    },
  },
  valibot: {
    field: 'type',
    codes: {
      min_value: MIN,
      max_value: MAX,
      min_length: MIN,
      max_length: MAX,
      non_empty: MIN,
      multiple_of: 'multipleOf',
      integer: 'type',
      regex: 'pattern',
      picklist: 'enum',
      enum: 'enum',
      literal: 'const',
      email: 'format',
      url: 'format',
      uuid: 'format',
      iso_date: 'format',
      iso_timestamp: 'format',
      strict_object: 'additionalProperties',
      union: 'anyOf',
      variant: 'anyOf',
    },
  },
  arktype: {
    field: 'code',
    bareMessage: 'problem',
    codes: {
      required: 'required',
      domain: 'type',
      proto: 'type',
      min: MIN,
      max: MAX,
      minLength: MIN,
      maxLength: MAX,
      divisor: 'multipleOf',
      pattern: 'pattern',
      unit: 'const',
      union: 'anyOf',
    },
  },
};

/** Valibot's schema-level issues (`kind: 'schema'`) are a value of the wrong type: `number`, `string`, `object`… */
function valibotSchemaIssue(issue: Record<string, unknown>): boolean {
  return issue.kind === 'schema' && !(typeof issue.type === 'string' && issue.type in VENDORS.valibot!.codes);
}

function bound(row: typeof MIN | typeof MAX, value: unknown): string {
  const prefix = row === MIN ? 'min' : 'max';
  if (typeof value === 'string') return `${prefix}Length`;
  if (Array.isArray(value)) return `${prefix}Items`;
  if (typeof value === 'number' || typeof value === 'bigint') return `${prefix}imum`;
  return 'schema';
}

/**
 * The keyword of one issue of a `vendor` schema, given the value that failed (to tell a string's
 * `minLength` from a number's `minimum`); `schema` when the library's code names no keyword.
 */
export function standardIssueKeyword(vendor: string, issue: object, failing: unknown): string {
  const table = VENDORS[vendor];
  if (!table) return 'schema';
  const record = issue as Record<string, unknown>;
  const code = record[table.field];
  if (vendor === 'zod' && code === 'invalid_format' && record.format === 'regex') return 'pattern';
  if (vendor === 'valibot' && valibotSchemaIssue(record)) return 'type';
  const row = typeof code === 'string' && Object.prototype.hasOwnProperty.call(table.codes, code) ? table.codes[code] : undefined;
  if (row === undefined) return 'schema';
  return typeof row === 'string' ? row : bound(row, failing);
}

/** The issue's message, without the path where the library puts it in front (the pointer says where). */
export function standardIssueMessage(vendor: string, issue: { message: string }): string {
  const field = VENDORS[vendor]?.bareMessage;
  const bare = field === undefined ? undefined : (issue as unknown as Record<string, unknown>)[field];
  return typeof bare === 'string' && bare !== '' ? bare : issue.message;
}
