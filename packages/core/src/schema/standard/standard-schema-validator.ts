/**
 * The validator of a Standard Schema: the library's own `~standard.validate`, its issues reshaped
 * into `{ pointer, keyword, message }` like DTO and TypeBox issues. A synchronous answer stays
 * synchronous; only a schema that answers with a promise (async refinements) makes the call wait.
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { isThenable } from '../../async/thenable.js';
import { childPointer, issueMessage, settleIssues, type ValidationIssue, type ValidationOutcome } from '../issues.js';
import { standardIssueKeyword, standardIssueMessage } from './standard-issue-vendors.js';
import { isJsonObject as isPlainRecord } from '../../protocol/json-object.js';

type PathSegment = PropertyKey | StandardSchemaV1.PathSegment;

/** A path segment's key: the spec allows bare keys and `{ key }` objects (valibot uses the latter). */
function segmentKey(segment: PathSegment): PropertyKey {
  return typeof segment === 'object' && segment !== null ? segment.key : segment;
}

/** One issue in our shape: an absent property is `required` (whatever the library calls it), as for DTOs and TypeBox. */
function toIssue(vendor: string, issue: StandardSchemaV1.Issue, value: unknown): ValidationIssue {
  let pointer = '';
  let parent: unknown;
  let node = value;
  let missing = false;
  for (const segment of issue.path ?? []) {
    const key = segmentKey(segment);
    pointer = childPointer(pointer, typeof key === 'symbol' ? (key.description ?? '') : key);
    parent = node;
    missing = isPlainRecord(parent) && !Object.prototype.hasOwnProperty.call(parent, key);
    node = isPlainRecord(parent) || Array.isArray(parent) ? (parent as Record<PropertyKey, unknown>)[key] : undefined;
  }
  if (missing) return { pointer, keyword: 'required', message: issueMessage.required() };
  return { pointer, keyword: standardIssueKeyword(vendor, issue, node), message: standardIssueMessage(vendor, issue) };
}

/**
 * Builds the validator of a Standard Schema (see `from-standard-schema.ts` for its JSON
 * Schema). Validation hands on the schema's output value — after its transforms, coercions and
 * defaults — which is what the handler receives.
 *
 * @param schema - a Standard Schema V1.
 * @returns a function answering `{ ok: true, value }` or `{ ok: false, issues }`; synchronously
 *   when the schema's `validate` does, else a promise of it.
 */
export function compileStandardValidator(schema: StandardSchemaV1): (value: unknown) => ValidationOutcome | Promise<ValidationOutcome> {
  const props = schema['~standard'];
  const vendor = props.vendor;
  const settle = (result: StandardSchemaV1.Result<unknown>, value: unknown): ValidationOutcome =>
    result.issues ? { ok: false, issues: settleIssues(result.issues.map((issue) => toIssue(vendor, issue, value))) } : { ok: true, value: result.value };
  return (value) => {
    const result = props.validate(value);
    return isThenable(result) ? Promise.resolve(result).then((settled) => settle(settled, value)) : settle(result, value);
  };
}
