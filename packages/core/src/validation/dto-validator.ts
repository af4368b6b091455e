import { plainToInstance } from 'class-transformer';
import { validate, type ValidationError } from 'class-validator';
import { childPointer, type ValidationIssue, type ValidationOutcome } from './issues.js';
import { fieldOptions } from '../schema/field.js';

/** class-validator constraint names → the JSON Schema keyword the generated schema uses for them. */
const KEYWORDS: Record<string, string> = {
  isString: 'type',
  isInt: 'type',
  isNumber: 'type',
  isBoolean: 'type',
  isArray: 'type',
  isObject: 'type',
  nestedValidation: 'type',
  isIn: 'enum',
  isEnum: 'enum',
  min: 'minimum',
  max: 'maximum',
  isPositive: 'exclusiveMinimum',
  isNegative: 'exclusiveMaximum',
  minLength: 'minLength',
  maxLength: 'maxLength',
  isLength: 'minLength',
  isNotEmpty: 'minLength',
  matches: 'pattern',
  isEmail: 'format',
  isUrl: 'format',
  isUuid: 'format',
  isDateString: 'format',
  isIso8601: 'format',
  arrayMinSize: 'minItems',
  arrayMaxSize: 'maxItems',
  arrayNotEmpty: 'minItems',
  arrayUnique: 'uniqueItems',
  isDefined: 'required',
};

/** "qty must not be greater than 10" → "must not be greater than 10". */
function withoutSubject(message: string, property: string): string {
  return message.startsWith(`${property} `) ? message.slice(property.length + 1) : message;
}

function collect(errors: ValidationError[], parent: string, out: ValidationIssue[]): void {
  for (const error of errors) {
    const pointer = childPointer(parent, error.property);
    const missing = error.value === undefined && error.constraints !== undefined;
    if (missing) {
      out.push({ pointer, keyword: 'required', message: 'is required' });
    } else if (error.constraints) {
      for (const [name, message] of Object.entries(error.constraints)) {
        out.push({ pointer, keyword: KEYWORDS[name] ?? name, message: withoutSubject(message, error.property) });
      }
    }
    if (error.children?.length) collect(error.children, pointer, out);
  }
}

/**
 * A validator for one DTO class: class-transformer makes a real instance (initializers and
 * `@Field({ default })` fill absent properties), then class-validator checks it. Only requests
 * reach the returned function; the class's metadata was read when it was built.
 */
export function compileDtoValidator(cls: Function): (value: unknown) => Promise<ValidationOutcome<object>> {
  const target = cls as new () => object;
  const probe = (() => {
    try {
      return new target() as Record<string, unknown>;
    } catch {
      return {} as Record<string, unknown>;
    }
  })();
  const defaults = Object.getOwnPropertyNames(probe)
    .concat(Object.getOwnPropertyNames(cls.prototype))
    .map((key) => [key, fieldOptions(cls.prototype as object, key)?.default] as const)
    .filter(([, value]) => value !== undefined);
  return async (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return { ok: false, issues: [{ pointer: '', keyword: 'type', message: 'arguments must be an object' }] };
    }
    const instance = plainToInstance(target, value) as Record<string, unknown>;
    for (const [key, fallback] of defaults) if (instance[key] === undefined) instance[key] = structuredClone(fallback);
    const errors = await validate(instance, { forbidUnknownValues: false, validationError: { target: false, value: true } });
    if (errors.length === 0) return { ok: true, value: instance };
    const issues: ValidationIssue[] = [];
    collect(errors, '', issues);
    return { ok: false, issues };
  };
}
