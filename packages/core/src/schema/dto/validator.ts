/**
 * The validator of a class-validator DTO. Where the DTO's JSON Schema says everything its
 * class-validator records say (see `exact-schema.ts`), a compiled check of that schema and an
 * instance built without class-transformer answer first (`fast-path.ts`); every value they do
 * not accept, and every request to any other DTO, takes the full path, which does three things:
 *
 * 1. a walk over the plain arguments along the DTO's shape (from `inspectDto`, read once):
 *    fills `@Field({ default })` into absent properties, reports each absent required property
 *    once (keyword `required`, at its own pointer), and refuses a non-object where a nested DTO
 *    goes — class-transformer would otherwise turn an array into an array of DTOs;
 * 2. class-transformer's `plainToInstance` (initializers apply naturally: it calls `new cls()`);
 * 3. class-validator's `validate`, whose errors are mapped to issues with JSON Schema keywords
 *    and concrete messages; what step 1 already said is not said again.
 */
import { plainToInstance } from 'class-transformer';
import { validate, type ValidationArguments, type ValidationError, type ValidatorConstraintInterface, type ValidatorOptions } from 'class-validator';
import { childPointer, hasJsonType, issueMessage, settleIssues, type ValidationIssue, type ValidationOutcome } from '../issues.js';
import { constraintIssue, constraintRow, type ValidationMetadata } from './constraints.js';
import { compileDtoFastPath } from './fast-path.js';
import { copyFreeForm, holdsConstructorKey, reattach, type DetachedValue } from './free-form-data.js';
import { inspectDto, type DtoProperty } from './inspect.js';
import { DecorumStartupError, StartupErrorCode } from '../../errors/startup-error.js';
import { isJsonObject as isObject } from '../../protocol/json-object.js';

/** `each: true` records, checked item by item so that an issue can point at the item. */
interface ItemCheck {
  readonly meta: ValidationMetadata;
  readonly check: ValidatorConstraintInterface;
}

interface PropertyPlan {
  readonly property: DtoProperty;
  /** The JSON type the schema gives the value (for "must be …" when its type is wrong). */
  readonly type: string | undefined;
  readonly itemType: string | undefined;
  readonly nested: { readonly plan: ClassPlan; readonly array: boolean } | undefined;
  readonly itemChecks: ReadonlyMap<string, ItemCheck>;
}

interface ClassPlan {
  readonly cls: Function;
  readonly properties: PropertyPlan[];
  readonly byName: Map<string, PropertyPlan>;
}

const VALIDATOR_OPTIONS: ValidatorOptions = Object.freeze({ forbidUnknownValues: false, validationError: { target: false, value: false } });

/** Builds the plan of `cls` and every DTO under it; a class met twice (or itself) shares one plan. */
function planFor(cls: Function, plans: Map<Function, ClassPlan>): ClassPlan {
  const known = plans.get(cls);
  if (known) return known;
  const plan: ClassPlan = { cls, properties: [], byName: new Map() };
  plans.set(cls, plan);
  for (const property of inspectDto(cls).properties) {
    if (property.fieldDefault !== undefined) {
      try {
        structuredClone(property.fieldDefault.value);
      } catch {
        throw new DecorumStartupError(
          StartupErrorCode.INVALID_FIELD_DEFAULT,
          `the @Field default of ${cls.name}.${property.name} is not data that can be copied per request (structuredClone failed)`,
        );
      }
    }
    const itemChecks = new Map<string, ItemCheck>();
    for (const [name, metas] of property.constraints) {
      const meta = metas.find((m) => m.each === true);
      if (meta === undefined) continue;
      try {
        itemChecks.set(name, { meta, check: new (meta.constraintCls as new () => ValidatorConstraintInterface)() });
      } catch {
        // A constraint class that wants constructor arguments (a DI container): reported per property instead.
      }
    }
    const entry: PropertyPlan = {
      property,
      type: typeof property.self.type === 'string' ? property.self.type : undefined,
      itemType: typeof property.items?.type === 'string' ? property.items.type : undefined,
      nested: property.nested && { plan: planFor(property.nested.cls, plans), array: property.nested.array },
      itemChecks,
    };
    plan.properties.push(entry);
    plan.byName.set(property.name, entry);
  }
  return plan;
}

type Plain = Record<string, unknown>;

/** True when class-validator (or class-transformer first) already decides the value's JSON type. */
function checksOwnType(property: DtoProperty): boolean {
  if (property.converted || property.self.enum !== undefined || property.self.const !== undefined) return true;
  for (const [name, metas] of property.constraints) if (constraintRow(name)?.type !== undefined && metas.some((m) => m.each !== true)) return true;
  return false;
}

/** Step 1: defaults in, absences and wrong shapes out. Copies only what it changes. */
function prepare(
  obj: Plain,
  plan: ClassPlan,
  pointer: string,
  issues: ValidationIssue[],
  settled: Set<string>,
  detached: DetachedValue[],
  path: readonly string[],
): Plain {
  let out = obj;
  const set = (key: string, value: unknown) => {
    if (out === obj) out = { ...obj };
    out[key] = value;
  };
  for (const { property, nested } of plan.properties) {
    const at = childPointer(pointer, property.name);
    let value = Object.prototype.hasOwnProperty.call(obj, property.name) ? obj[property.name] : undefined;
    if (value === undefined && property.fieldDefault !== undefined) {
      value = structuredClone(property.fieldDefault.value);
      set(property.name, value);
    }
    if (value === undefined) {
      if (property.required) {
        issues.push({ pointer: at, keyword: 'required', message: issueMessage.required() });
        settled.add(at);
      }
      continue;
    }
    if (value === null) continue; // class-validator's call: @IsOptional allows null
    // The schema's type holds even where no class-validator decorator checks it (a design type
    // alone, `each: true` given a non-array). Where one does, class-validator speaks (in the
    // author's words, if any), and enums speak for themselves (their issue lists the values).
    const type = property.self.type;
    if (typeof type === 'string' && !checksOwnType(property) && !hasJsonType(value, type)) {
      issues.push({ pointer: at, keyword: 'type', message: issueMessage.type(type) });
      settled.add(at);
      continue;
    }
    if (nested === undefined) {
      // class-transformer would throw on an own `constructor` key (see free-form-data.ts).
      if (typeof value === 'object' && holdsConstructorKey(value)) {
        detached.push({ path: [...path, property.name], value: copyFreeForm(value) });
        set(property.name, undefined);
      }
      continue;
    }
    if (!nested.array) {
      if (!isObject(value)) {
        issues.push({ pointer: at, keyword: 'type', message: issueMessage.type('object') });
        settled.add(at);
      } else {
        const next = prepare(value, nested.plan, at, issues, settled, detached, [...path, property.name]);
        if (next !== value) set(property.name, next);
      }
      continue;
    }
    if (!Array.isArray(value)) {
      issues.push({ pointer: at, keyword: 'type', message: issueMessage.type('array') });
      settled.add(at);
      continue;
    }
    let items: unknown[] = value;
    value.forEach((item, index) => {
      const itemAt = childPointer(at, index);
      if (!isObject(item)) {
        issues.push({ pointer: itemAt, keyword: 'type', message: issueMessage.type('object') });
        settled.add(itemAt);
        return;
      }
      const next = prepare(item, nested.plan, itemAt, issues, settled, detached, [...path, property.name, String(index)]);
      if (next !== item) {
        if (items === value) items = [...value];
        items[index] = next;
      }
    });
    if (items !== value) set(property.name, items);
  }
  // Unknown keys are copied by class-transformer as well (see free-form-data.ts).
  for (const key of Object.keys(obj)) {
    const value = obj[key];
    if (typeof value === 'object' && !plan.byName.has(key) && key !== '__proto__' && holdsConstructorKey(value)) {
      detached.push({ path: [...path, key], value: copyFreeForm(value) });
      set(key, undefined);
    }
  }
  return out;
}

/** The JSON type a keyword applies to: a value of another type fails `type`, not the keyword. */
const APPLIES_TO: Record<string, string> = {
  minimum: 'number',
  maximum: 'number',
  exclusiveMinimum: 'number',
  exclusiveMaximum: 'number',
  multipleOf: 'number',
  minLength: 'string',
  maxLength: 'string',
  pattern: 'string',
  format: 'string',
  minItems: 'array',
  maxItems: 'array',
  uniqueItems: 'array',
};

/** "qty must not be greater than 10" → "must not be greater than 10": the pointer already names it. */
function withoutSubject(text: string, property: string): string {
  return text.startsWith(`${property} `) ? text.slice(property.length + 1) : text;
}

/** One failed class-validator constraint as an issue with a JSON Schema keyword. */
function issueFor(
  name: string,
  meta: ValidationMetadata | undefined,
  value: unknown,
  text: string,
  pointer: string,
  property: string,
  schemaType: string | undefined,
): ValidationIssue {
  // The constraint table has the keyword and the words; a constraint without a row keeps its name and class-validator's words.
  const [keyword, message] = constraintIssue(name, meta, value, schemaType) ?? [name, withoutSubject(text, property)];
  const applies = APPLIES_TO[keyword];
  if (applies !== undefined && !hasJsonType(value, applies)) {
    return { pointer, keyword: 'type', message: issueMessage.type(schemaType ?? applies) };
  }
  // A message the DTO's author wrote (`{ message: '…' }`) says what they want said.
  return { pointer, keyword, message: meta?.message !== undefined ? withoutSubject(text, property) : message };
}

/** `each: true` failures item by item, so that the issue points at `/tags/1`, not at `/tags`. */
async function itemIssues(
  plan: ClassPlan,
  entry: PropertyPlan,
  name: string,
  items: unknown[],
  obj: unknown,
  pointer: string,
  text: string,
): Promise<ValidationIssue[]> {
  const check = entry.itemChecks.get(name);
  if (check === undefined) return [];
  const out: ValidationIssue[] = [];
  for (const [index, item] of items.entries()) {
    const args: ValidationArguments = {
      value: item,
      constraints: check.meta.constraints,
      targetName: plan.cls.name,
      object: obj as object,
      property: entry.property.name,
    };
    let ok: boolean;
    try {
      ok = await check.check.validate(item, args);
    } catch {
      ok = false;
    }
    if (!ok) out.push(issueFor(name, check.meta, item, text, childPointer(pointer, index), entry.property.name, entry.itemType));
  }
  return out;
}

/** Step 3: class-validator's error tree → issues, walking the instance alongside for values. */
async function collect(
  errors: ValidationError[],
  plan: ClassPlan | undefined,
  obj: unknown,
  pointer: string,
  issues: ValidationIssue[],
  settled: Set<string>,
): Promise<void> {
  for (const error of errors) {
    const at = childPointer(pointer, error.property);
    if (settled.has(at)) continue;
    const entry = plan?.byName.get(error.property);
    const value = isObject(obj) ? obj[error.property] : undefined;
    for (const [name, text] of Object.entries(error.constraints ?? {})) {
      const metas = entry?.property.constraints.get(name) ?? [];
      const whole = metas.find((m) => m.each !== true);
      if (plan && entry && whole === undefined && Array.isArray(value)) {
        const perItem = await itemIssues(plan, entry, name, value, obj, at, text);
        if (perItem.length > 0) {
          issues.push(...perItem);
          continue;
        }
      }
      issues.push(issueFor(name, whole ?? metas[0], value, text, at, error.property, entry?.type));
    }
    if (!error.children?.length) continue;
    const nested = entry?.nested;
    if (nested?.array && Array.isArray(value)) {
      for (const child of error.children) {
        const itemAt = childPointer(at, child.property);
        if (settled.has(itemAt)) continue;
        const item = value[Number(child.property)];
        for (const [name, text] of Object.entries(child.constraints ?? {}))
          issues.push(issueFor(name, undefined, item, text, itemAt, child.property, 'object'));
        await collect(child.children ?? [], nested.plan, item, itemAt, issues, settled);
      }
    } else {
      await collect(error.children, nested?.plan, value, at, issues, settled);
    }
  }
}

/**
 * Compiles the full (class-validator) path of one DTO class: the class (and every DTO under it)
 * is inspected here, once; the returned function does only per-request work. Every DTO validator
 * falls back to it; `compileDtoValidator` is the one to use.
 *
 * @param cls - a class-validator DTO class with a no-argument constructor.
 * @returns a function resolving to `{ ok: true, value }` with `value` a real `cls` instance
 *   (nested DTOs instantiated, defaults applied), or `{ ok: false, issues }` listing every
 *   failing field: pointer, JSON Schema keyword, concrete message.
 * @throws DecorumStartupError when the DTO cannot be inspected (see `inspectDto`), or
 *   (`DECORUM_ERR_INVALID_FIELD_DEFAULT`) when a `@Field` default cannot be copied per request.
 */
export function compileClassValidatorPath(cls: Function): (value: unknown) => Promise<ValidationOutcome<object>> {
  const root = planFor(cls, new Map());
  const target = cls as new () => object;
  return async (value) => {
    if (!isObject(value)) return { ok: false, issues: [{ pointer: '', keyword: 'type', message: issueMessage.type('object') }] };
    const issues: ValidationIssue[] = [];
    const settled = new Set<string>();
    const detached: DetachedValue[] = [];
    const prepared = prepare(value, root, '', issues, settled, detached, []);
    const instance = plainToInstance(target, prepared);
    if (detached.length > 0) reattach(instance, detached);
    const errors = await validate(instance, VALIDATOR_OPTIONS);
    if (errors.length > 0) await collect(errors, root, instance, '', issues, settled);
    return issues.length === 0 ? { ok: true, value: instance } : { ok: false, issues: settleIssues(issues) };
  };
}

/**
 * How a DTO validator decides: `json-schema` — a compiled check of the DTO's JSON Schema accepts
 * (synchronously) what it can prove class-validator accepts, the rest goes to class-validator;
 * `class-validator` — every value goes through class-transformer and class-validator.
 */
export type DtoValidationStrategy = 'json-schema' | 'class-validator';

/** A compiled DTO validator, with the strategy it chose at start-up. */
export interface DtoValidator {
  /**
   * `{ ok: true, value }` with `value` a real instance of the DTO (nested DTOs instantiated,
   * initializers and `@Field` defaults applied), or `{ ok: false, issues }` listing every failing
   * field. Synchronous when the fast path accepts the value, a promise otherwise.
   */
  (value: unknown): ValidationOutcome<object> | Promise<ValidationOutcome<object>>;
  readonly strategy: DtoValidationStrategy;
  /** Why the DTO keeps class-validator (`Order.email: @IsEmail has no JSON Schema counterpart…`); `undefined` for `json-schema`. */
  readonly reason: string | undefined;
}

/**
 * Compiles the validator of one DTO class, choosing its strategy once: `json-schema` when every
 * class-validator record of the DTO and of every DTO under it is implied by the generated schema
 * and class-transformer does nothing beyond `@Type(() => Dto)` for nested DTOs; otherwise
 * `class-validator`. Either way the outcomes — values and issues — are those of the full path.
 *
 * @param cls - a class-validator DTO class with a no-argument constructor.
 * @throws DecorumStartupError as `compileClassValidatorPath` does.
 */
export function compileDtoValidator(cls: Function): DtoValidator {
  const fullPath = compileClassValidatorPath(cls);
  const fast = compileDtoFastPath(cls, fullPath);
  const validate: (value: unknown) => ValidationOutcome<object> | Promise<ValidationOutcome<object>> = fast.validate ?? fullPath;
  return Object.freeze(Object.assign(validate, { strategy: fast.validate ? ('json-schema' as const) : ('class-validator' as const), reason: fast.reason }));
}
