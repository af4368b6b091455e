/** One reason arguments failed validation, identical in shape for DTOs and TypeBox. */
export interface ValidationIssue {
  /** RFC 6901 pointer into the arguments (`''` is the whole object, `/items/1/qty` a nested field). */
  pointer: string;
  /** The JSON Schema keyword that failed (`type`, `required`, `minimum`, `enum`, `pattern`, …). */
  keyword: string;
  /** What is wrong, in words a model can act on. */
  message: string;
}

export type ValidationOutcome<T = unknown> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[] };

/** Escapes one RFC 6901 reference token. */
export function pointerToken(segment: string | number): string {
  return String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Joins a parent pointer and a child token. */
export function childPointer(parent: string, segment: string | number): string {
  return `${parent}/${pointerToken(segment)}`;
}

/** One line per issue: `- /units: must be one of metric, imperial, kelvin (enum)`. */
export function formatIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((i) => `- ${i.pointer || '(arguments)'}: ${i.message} (${i.keyword})`).join('\n');
}
