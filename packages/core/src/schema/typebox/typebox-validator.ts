/**
 * The validator of a TypeBox 1.x schema: compiled once with `Compile` (JIT code where the
 * runtime allows it), then per request a `Check`, and only on failure the error pass, whose
 * results are reshaped to match what the DTO validator reports for the same mistake:
 *
 * - `required` lists every missing property at the object's path → one issue per property, at
 *   the property's own pointer (`/location`), as for DTOs;
 * - an `anyOf`/`oneOf` reports each failed branch and then itself → one issue: `enum` when the
 *   branches are literals (`Type.Union([Type.Literal('a'), …])`, the TypeBox idiom for an enum),
 *   `type` when no branch accepts the value's type, else the alternative keyword;
 * - `additionalProperties: false` reports the property and a summary → one issue at the property.
 */
import type { TSchema } from 'typebox';
import { childPointer, issueMessage, pointerSegments, settleIssues, type ValidationIssue, type ValidationOutcome } from '../issues.js';
import { compiledOnFirstUse, type TypeBoxCompiler } from './typebox-compiler.js';

/** A TypeBox error, as `Validator.Errors` returns it. */
interface TypeBoxError {
  keyword: string;
  schemaPath: string;
  instancePath: string;
  params: Record<string, unknown>;
  message: string;
}

/**
 * TypeBox stops collecting after `Settings.maxErrors` (8 by default, a guard against huge
 * error lists). A union alone spends one error per branch, so 8 would hide whole fields; the
 * error pass raises the cap to this for its own duration (it is synchronous, so nothing else
 * sees the change) — still a bound.
 */
const MAX_ERRORS = 100;

function collectErrors({ Settings }: TypeBoxCompiler, validator: { Errors(value: unknown): unknown[] }, value: unknown): TypeBoxError[] {
  const previous = Settings.Get().maxErrors;
  Settings.Set({ maxErrors: Math.max(previous, MAX_ERRORS) });
  try {
    return validator.Errors(value) as TypeBoxError[];
  } finally {
    Settings.Set({ maxErrors: previous });
  }
}

/** The subschema a TypeBox `schemaPath` (`#/properties/a`) names, when it can be followed. */
function schemaAt(schema: unknown, schemaPath: string): unknown {
  let node = schema;
  for (const segment of pointerSegments(schemaPath.replace(/^#/, ''))) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]);

/** One issue for a failed `anyOf`/`oneOf`, from the errors of its branches. */
function alternativesIssue(error: TypeBoxError, branchErrors: TypeBoxError[]): ValidationIssue {
  const pointer = error.instancePath;
  const branches = new Map<string, TypeBoxError[]>();
  const prefix = `${error.schemaPath}/${error.keyword}/`;
  for (const e of branchErrors) {
    const index = e.schemaPath.slice(prefix.length).split('/')[0];
    branches.set(index, [...(branches.get(index) ?? []), e]);
  }
  const groups = [...branches.values()];
  const here = (e: TypeBoxError) => e.instancePath === pointer;
  // Literals: each branch failed on its const/enum here (possibly on its type too).
  if (
    groups.length > 0 &&
    groups.every(
      (g) => g.every(here) && g.some((e) => e.keyword === 'const' || e.keyword === 'enum') && g.every((e) => ['const', 'enum', 'type'].includes(e.keyword)),
    )
  ) {
    const values = groups.flatMap((g) =>
      g.flatMap((e) => (e.keyword === 'const' ? [e.params.allowedValue] : e.keyword === 'enum' ? asArray(e.params.allowedValues) : [])),
    );
    return { pointer, keyword: 'enum', message: issueMessage.enum([...new Set(values)]) };
  }
  // No branch takes this type at all: say which types would do.
  if (groups.length > 0 && groups.every((g) => g.some((e) => here(e) && e.keyword === 'type'))) {
    const types = groups.flatMap((g) => g.filter((e) => here(e) && e.keyword === 'type').flatMap((e) => asArray(e.params.type).map(String)));
    return { pointer, keyword: 'type', message: issueMessage.type([...new Set(types)]) };
  }
  return {
    pointer,
    keyword: error.keyword,
    message: error.keyword === 'oneOf' ? 'must match exactly one of the allowed alternatives' : 'must match one of the allowed alternatives',
  };
}

/** One TypeBox error that needs no context, in our words. */
function simpleIssue(error: TypeBoxError): ValidationIssue {
  const { keyword, params, instancePath: pointer } = error;
  switch (keyword) {
    case 'type':
      return { pointer, keyword, message: issueMessage.type(asArray(params.type).map(String)) };
    case 'enum':
      return { pointer, keyword, message: issueMessage.enum(asArray(params.allowedValues)) };
    case 'const':
      return { pointer, keyword, message: issueMessage.const(params.allowedValue) };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return { pointer, keyword, message: issueMessage[keyword](params.limit) };
    case 'multipleOf':
      return { pointer, keyword, message: issueMessage.multipleOf(params.multipleOf) };
    case 'minLength':
    case 'maxLength':
    case 'minItems':
    case 'maxItems':
      return { pointer, keyword, message: issueMessage[keyword](Number(params.limit)) };
    case 'pattern':
      return { pointer, keyword, message: issueMessage.pattern(String(params.pattern)) };
    case 'format':
      return { pointer, keyword, message: issueMessage.format(String(params.format)) };
    case 'uniqueItems':
      return { pointer, keyword, message: issueMessage.uniqueItems() };
    default:
      return { pointer, keyword, message: error.message };
  }
}

/** TypeBox's errors in the shape and words the DTO validator uses. */
function toIssues(errors: TypeBoxError[], schema: unknown): ValidationIssue[] {
  const consumed = new Set<TypeBoxError>();
  const replaced = new Map<TypeBoxError, ValidationIssue>();
  // Outermost alternatives first: an inner union's errors belong to the outer one's branches.
  const alternatives = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').sort((a, b) => a.schemaPath.length - b.schemaPath.length);
  for (const error of alternatives) {
    if (consumed.has(error)) continue;
    const prefix = `${error.schemaPath}/${error.keyword}/`;
    const branchErrors = errors.filter((e) => e !== error && e.schemaPath.startsWith(prefix));
    for (const e of branchErrors) consumed.add(e);
    replaced.set(error, alternativesIssue(error, branchErrors));
  }
  const issues: ValidationIssue[] = [];
  for (const error of errors) {
    if (consumed.has(error)) continue;
    const replacement = replaced.get(error);
    if (replacement) {
      issues.push(replacement);
    } else if (error.keyword === 'required') {
      for (const name of asArray(error.params.requiredProperties)) {
        issues.push({ pointer: childPointer(error.instancePath, String(name)), keyword: 'required', message: issueMessage.required() });
      }
    } else if (error.keyword === 'boolean' && error.schemaPath.endsWith('/additionalProperties')) {
      // `additionalProperties: false` failing on one property; name the ones that are allowed.
      const owner = schemaAt(schema, error.schemaPath.slice(0, -'/additionalProperties'.length)) as { properties?: object } | undefined;
      issues.push({
        pointer: error.instancePath,
        keyword: 'additionalProperties',
        message: issueMessage.additionalProperties(Object.keys(owner?.properties ?? {})),
      });
    } else if (error.keyword === 'additionalProperties') {
      // The summary of the per-property errors above (or of a failing additionalProperties schema, reported in detail).
    } else {
      issues.push(simpleIssue(error));
    }
  }
  return settleIssues(issues);
}

/** True when any subschema carries a `default`, i.e. when applying defaults can change a value. */
function hasDefaults(schema: unknown, isData = false): boolean {
  if (typeof schema !== 'object' || schema === null || isData) return false;
  if (Array.isArray(schema)) return schema.some((item) => hasDefaults(item));
  return Object.entries(schema).some(([key, child]) => key === 'default' || hasDefaults(child, key === 'const' || key === 'enum' || key === 'examples'));
}

/**
 * The validator of a TypeBox 1.x schema (or plain JSON Schema object), compiled once, on its first
 * call (see typebox-compiler.ts: the first call may wait for TypeBox's compiler to load).
 *
 * @param schema - the schema to check values against.
 * @returns a function that, for a valid value, returns it with the schema's defaults applied
 *   (on a copy: the caller's object is never touched), and otherwise every issue found, with
 *   pointers and keywords shaped like the DTO validator's; synchronously once compiled.
 */
export function compileTypeBoxValidator(schema: object): (value: unknown) => ValidationOutcome | Promise<ValidationOutcome> {
  const defaults = hasDefaults(schema);
  const compiled = compiledOnFirstUse((compiler) => ({ compiler, validator: compiler.Compile(schema as TSchema) }));
  const check = (
    { compiler, validator }: { compiler: TypeBoxCompiler; validator: ReturnType<TypeBoxCompiler['Compile']> },
    value: unknown,
  ): ValidationOutcome => {
    if (validator.Check(value)) return { ok: true, value: defaults ? validator.Default(structuredClone(value)) : value };
    return { ok: false, issues: toIssues(collectErrors(compiler, validator, value), schema) };
  };
  return (value) => {
    const ready = compiled();
    return ready instanceof Promise ? ready.then((c) => check(c, value)) : check(ready, value);
  };
}
