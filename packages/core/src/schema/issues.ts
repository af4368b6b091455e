/**
 * Validation issues: the one shape both validators (DTO and TypeBox) report in, the shared
 * phrasing of their messages, and the text a model reads. Issues are data first — a pointer
 * into the arguments and the JSON Schema keyword that failed — so that the same mistake reads
 * the same whichever schema source the tool author chose.
 */

import { isJsonObject } from '../protocol/json-object.js';

/** One failed check. */
export interface ValidationIssue {
  /** RFC 6901 JSON pointer into the arguments; `''` is the arguments object itself. */
  pointer: string;
  /**
   * The JSON Schema keyword that failed (`type`, `required`, `enum`, `minimum`, `maxLength`,
   * `pattern`, `format`, `minItems`, `additionalProperties`, …). A class-validator constraint
   * with no JSON Schema counterpart keeps its own name (e.g. `isPhoneNumber`).
   */
  keyword: string;
  /** What is wrong, phrased for the caller to fix it ("must be one of metric, imperial"). */
  message: string;
}

/** The result of validating a value: the (possibly transformed) value, or every issue found. */
export type ValidationOutcome<T = unknown> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[] };

/** Escapes one pointer segment per RFC 6901 (`~` → `~0`, `/` → `~1`, in that order). */
export function escapePointerSegment(segment: string | number): string {
  return String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Appends one (unescaped) segment to a pointer. */
export function childPointer(pointer: string, segment: string | number): string {
  return `${pointer}/${escapePointerSegment(segment)}`;
}

/** Splits a pointer into its unescaped segments (`''` → `[]`). */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

const FORMAT_NAMES: Record<string, string> = {
  email: 'an email address',
  uri: 'an absolute URI (e.g. https://example.com/x)',
  url: 'an absolute URI (e.g. https://example.com/x)',
  uuid: 'a UUID',
  'date-time': 'an ISO 8601 date-time (e.g. 2026-07-28T12:00:00Z)',
  date: 'an ISO 8601 date (e.g. 2026-07-28)',
  time: 'an ISO 8601 time (e.g. 12:00:00Z)',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
  hostname: 'a host name',
};

/** Shows one allowed value the way a model would type it: strings bare, the rest as JSON. */
function showValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * The messages both validators use, so that a DTO and an equivalent TypeBox schema describe
 * the same mistake with the same words.
 */
export const issueMessage = {
  required: (): string => 'is required',
  type: (types: string | readonly string[]): string => {
    const list = (typeof types === 'string' ? [types] : [...types]).map((t) => TYPE_NAMES[t] ?? t);
    return `must be ${list.join(' or ')}`;
  },
  enum: (values: readonly unknown[]): string => `must be one of ${values.map(showValue).join(', ')}`,
  const: (value: unknown): string => `must be ${showValue(value)}`,
  minimum: (limit: unknown): string => `must be >= ${String(limit)}`,
  maximum: (limit: unknown): string => `must be <= ${String(limit)}`,
  exclusiveMinimum: (limit: unknown): string => `must be > ${String(limit)}`,
  exclusiveMaximum: (limit: unknown): string => `must be < ${String(limit)}`,
  multipleOf: (step: unknown): string => `must be a multiple of ${String(step)}`,
  minLength: (limit: number): string => (limit === 1 ? 'must not be empty' : `must be at least ${limit} characters long`),
  maxLength: (limit: number): string => `must be at most ${limit} characters long`,
  pattern: (pattern: string): string => `must match the pattern ${pattern}`,
  format: (format: string): string => `must be ${FORMAT_NAMES[format] ?? `a valid ${format}`}`,
  minItems: (limit: number): string => `must contain at least ${limit} item${limit === 1 ? '' : 's'}`,
  maxItems: (limit: number): string => `must contain at most ${limit} item${limit === 1 ? '' : 's'}`,
  uniqueItems: (): string => 'must not contain duplicate items',
  additionalProperties: (allowed?: readonly string[]): string =>
    allowed && allowed.length > 0 ? `is not an allowed property (allowed: ${allowed.join(', ')})` : 'is not an allowed property',
} as const;

/**
 * The JSON type of a value in JSON Schema's vocabulary, tested the way a `type` keyword tests
 * it (an integer is also a number).
 */
export function hasJsonType(value: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isJsonObject(value);
    case 'null':
      return value === null;
    default:
      return true;
  }
}

/**
 * Final clean-up both validators apply, so that one mistake is one issue: duplicates go, and
 * where a value has the wrong type, that is all that is said about it — `minimum` or
 * `maxLength` mean nothing for a value of the wrong type (JSON Schema does not apply them).
 * An `enum` or `const` issue outranks `type`: "must be one of metric, imperial" says more than
 * "must be a string", and it is what a TypeBox union of literals reports.
 */
export function settleIssues(issues: readonly ValidationIssue[]): ValidationIssue[] {
  const listed = new Set(issues.filter((i) => i.keyword === 'enum' || i.keyword === 'const').map((i) => i.pointer));
  const typed = new Set(issues.filter((i) => i.keyword === 'type' && !listed.has(i.pointer)).map((i) => i.pointer));
  const seen = new Set<string>();
  const out: ValidationIssue[] = [];
  for (const issue of issues) {
    if (listed.has(issue.pointer) && issue.keyword !== 'enum' && issue.keyword !== 'const') continue;
    if (typed.has(issue.pointer) && issue.keyword !== 'type') continue;
    // One type issue per pointer; other keywords keep distinct messages (two patterns, say).
    const key = issue.keyword === 'type' ? `${issue.pointer}\u0000type` : `${issue.pointer}\u0000${issue.keyword}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(issue);
  }
  return out;
}

/** How a pointer reads in text: the root has no segments, so it gets a name. */
function showPointer(pointer: string): string {
  return pointer === '' ? '(arguments)' : pointer;
}

/**
 * Renders issues as text a model can act on: one line per issue with where, what and the
 * keyword, e.g.
 *
 * ```text
 * Invalid arguments:
 * - /units: must be one of metric, imperial, kelvin (enum)
 * - /location: is required (required)
 * ```
 *
 * @param issues - the issues to list, in order.
 * @param heading - the first line; `null` leaves it out (for callers that write their own).
 */
export function formatIssues(issues: readonly ValidationIssue[], heading: string | null = 'Invalid arguments:'): string {
  const lines = issues.map((issue) => `- ${showPointer(issue.pointer)}: ${issue.message} (${issue.keyword})`);
  return (heading === null ? lines : [heading, ...lines]).join('\n');
}
