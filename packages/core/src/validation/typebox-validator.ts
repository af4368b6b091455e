import { Compile } from 'typebox/compile';
import { Value } from 'typebox/value';
import type { TSchema } from 'typebox';
import { childPointer, type ValidationIssue, type ValidationOutcome } from './issues.js';

interface TypeBoxError {
  keyword: string;
  schemaPath: string;
  instancePath: string;
  params: Record<string, unknown>;
  message: string;
}

/** TypeBox's errors in our shape: a missing property is reported at its own pointer, as for DTOs. */
function toIssues(errors: Iterable<TypeBoxError>): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const error of errors) {
    if (error.keyword === 'required') {
      for (const name of (error.params.requiredProperties as string[]) ?? []) {
        issues.push({ pointer: childPointer(error.instancePath, name), keyword: 'required', message: 'is required' });
      }
    } else if (error.keyword === 'additionalProperties') {
      for (const name of (error.params.additionalProperties as string[]) ?? []) {
        issues.push({ pointer: childPointer(error.instancePath, name), keyword: 'additionalProperties', message: 'is not an allowed property' });
      }
    } else if (error.keyword === 'boolean' && error.schemaPath.endsWith('/additionalProperties')) {
      // The same fact as the additionalProperties error above.
    } else if (error.keyword === 'enum') {
      const values = (error.params.allowedValues as unknown[] | undefined) ?? [];
      issues.push({ pointer: error.instancePath, keyword: 'enum', message: values.length ? `must be one of ${values.join(', ')}` : error.message });
    } else {
      issues.push({ pointer: error.instancePath, keyword: error.keyword, message: error.message });
    }
  }
  return issues;
}

/**
 * Compiles a TypeBox (or plain JSON Schema) object once; the returned function only checks.
 * Valid values come back with schema defaults applied (on a copy: the caller's object is untouched).
 */
export function compileTypeBoxValidator(schema: object): (value: unknown) => ValidationOutcome {
  const compiled = Compile(schema as TSchema);
  return (value) => {
    if (compiled.Check(value)) return { ok: true, value: Value.Default(schema as TSchema, structuredClone(value)) };
    return { ok: false, issues: toIssues(compiled.Errors(value) as Iterable<TypeBoxError>) };
  };
}
