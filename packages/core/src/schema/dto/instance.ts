/**
 * A DTO instance built the way the class-validator path builds it — `@Field` defaults filled in
 * (as its first step does), then class-transformer's `plainToInstance` with default options — but
 * without class-transformer, for the DTOs where the result is known to be the same:
 *
 * - `new cls()` (initializers run), then every own enumerable key of the plain object in order,
 *   except `__proto__`, `constructor` and keys the class's prototype defines without a setter or
 *   the new instance already holds a function under (class-transformer skips those);
 * - a nested DTO (`@ValidateNested() @Type(() => Dto)`) becomes a `Dto` instance the same way,
 *   an array of them an array of instances;
 * - any other object or array is copied deeply as plain data (unknown keys included), primitives
 *   are kept as they are.
 *
 * Building refuses (returns `NOT_BUILT`) whatever would take another path there — a required
 * property that is absent, a value of another shape where a DTO goes, a `Date`, `Map`, class
 * instance or thenable among the data, a decorated property left `undefined` where class-validator
 * would check it — so that the caller can leave those values to the full path. A DTO whose
 * class-transformer metadata does more than `@Type(() => Dto)` on a nested property (`@Transform`,
 * `@Expose`, `@Exclude`, `@Type(() => Number)`, discriminators, Set or Map containers) is not
 * planned at all.
 */
import { defaultMetadataStorage } from 'class-transformer/cjs/storage.js';
import { inspectDto, type DtoProperty } from './inspect.js';
import { copyFreeForm } from './free-form-data.js';

/** Returned by `buildInstance` for a value the full path must handle. */
export const NOT_BUILT: unique symbol = Symbol('not built');

interface PropertyPlan {
  readonly name: string;
  /** The plain object must have it (the class-validator path reports it absent). */
  readonly required: boolean;
  readonly fieldDefault: { readonly value: unknown } | undefined;
  readonly nested: { readonly plan: InstancePlan; readonly array: boolean } | undefined;
}

/** What `buildInstance` needs to know about one DTO class, read once. */
export interface InstancePlan {
  readonly cls: new () => Record<string, unknown>;
  readonly properties: readonly PropertyPlan[];
  readonly byName: ReadonlyMap<string, PropertyPlan>;
  /** How many properties the plain object must have (the class-validator path reports them absent). */
  readonly required: number;
  /** Properties with a `@Field` default, in declaration order (the order it fills them in). */
  readonly defaults: readonly PropertyPlan[];
  /**
   * Properties class-validator checks even when `undefined` (no `@IsOptional`, or `@IsDefined`)
   * that may be left `undefined` (not required: an initializer or default is expected to fill them).
   */
  readonly defined: readonly string[];
}

/** The private maps of class-transformer's storage that say what `plainToInstance` does per class. */
interface TransformStorage {
  findTypeMetadata(target: Function, property: string): { typeFunction?: Function; reflectedType?: unknown; options?: { discriminator?: unknown } } | undefined;
  _typeMetadatas?: unknown;
  _transformMetadatas?: unknown;
  _exposeMetadatas?: unknown;
  _excludeMetadatas?: unknown;
}
const storage = defaultMetadataStorage as unknown as TransformStorage;

/** `cls` and its ancestors, as class-transformer walks them. */
function lineage(cls: Function): Function[] {
  const chain: Function[] = [];
  for (let c: Function | null = cls; c && typeof c.prototype === 'object' && c.prototype !== null; c = Object.getPrototypeOf(c) as Function | null)
    chain.push(c);
  return chain;
}

/** Keys of `map`'s entries for the classes in `chain`, or `undefined` when the storage is not what it was. */
function keysIn(map: unknown, chain: readonly Function[]): unknown[] | undefined {
  if (!(map instanceof Map)) return undefined;
  return chain.flatMap((c) => {
    const entries: unknown = map.get(c);
    return entries instanceof Map ? [...entries.keys()] : [];
  });
}

/** `Cls.key: what`, or `Cls: what` for the class as a whole. */
const at = (cls: Function, key: unknown, what: string) => `${cls.name}${key === undefined ? '' : `.${String(key)}`}: ${what}`;

/** Why class-transformer would do more for `cls` than `buildInstance` does, or `undefined`. */
function transformerReason(cls: Function, properties: readonly DtoProperty[]): string | undefined {
  const chain = lineage(cls);
  const [typed, transformed, exposed, excluded] = [
    storage._typeMetadatas,
    storage._transformMetadatas,
    storage._exposeMetadatas,
    storage._excludeMetadatas,
  ].map((map) => keysIn(map, chain));
  if (!typed || !transformed || !exposed || !excluded) return at(cls, undefined, "class-transformer's metadata storage is not the one this version reads");
  if (transformed.length > 0) return at(cls, transformed[0], '@Transform changes the value first');
  if (exposed.length > 0 || excluded.length > 0) return at(cls, [...exposed, ...excluded][0], '@Expose or @Exclude changes which keys plainToInstance copies');
  for (const key of new Set(typed)) {
    const property = properties.find((p) => p.name === key);
    const meta = storage.findTypeMetadata(cls, String(key));
    if (property?.nested === undefined || meta === undefined) return at(cls, key, '@Type on a property without @ValidateNested');
    if (meta.typeFunction?.length !== 0 || meta.options?.discriminator !== undefined) return at(cls, key, '@Type chooses the class per value');
    const container = meta.reflectedType;
    const plainArray = container === undefined || container === Array || container === Object;
    if (container === Map || container === Set || (property.nested.array && !plainArray))
      return at(cls, key, `the design type is a ${(container as Function).name}, not an array`);
  }
  return undefined;
}

/** JSON data as `JSON.parse` makes it: what a copy reproduces exactly, as `structuredClone` would. */
function isJsonData(value: unknown, seen = new Set<object>()): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object' || seen.has(value)) return false;
  seen.add(value);
  if (Array.isArray(value))
    return Object.getPrototypeOf(value) === Array.prototype && Object.keys(value).length === value.length && value.every((item) => isJsonData(item, seen));
  if (Object.getPrototypeOf(value) !== Object.prototype || Object.getOwnPropertySymbols(value).length > 0) return false;
  return Object.getOwnPropertyNames(value).every((key) => {
    const descriptor = Object.getOwnPropertyDescriptor(value, key)!;
    return key !== '__proto__' && descriptor.enumerable === true && 'value' in descriptor && isJsonData(descriptor.value, seen);
  });
}

/**
 * Why a decorated property could be assigned differently from a plain data property. When there is
 * none, class-transformer never leaves the property alone (see `skips`): the prototype chain does not
 * define it, and an initializer does not set a function there (asked of `probe`, a new instance).
 */
function propertyReason(cls: Function, property: DtoProperty, probe: Record<string, unknown>): string | undefined {
  const { name } = property;
  if (property.converted) return at(cls, name, '@Transform or @Type(() => Number/String/…) changes the value first');
  // The full path copies a default with structuredClone; building copies it too, which is the same for JSON data.
  if (property.fieldDefault && !isJsonData(property.fieldDefault.value)) return at(cls, name, 'its @Field default is not JSON data');
  if (name === '__proto__' || name === 'constructor' || name === 'prototype' || name in Object.prototype)
    return at(cls, name, 'the name of a built-in object member');
  for (let p: object | null = cls.prototype as object; p && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null) {
    if (Object.getOwnPropertyDescriptor(p, name)) return at(cls, name, "the class's prototype defines it (an accessor or method)");
  }
  if (probe[name] instanceof Function) return at(cls, name, 'an initializer sets a function there');
  return undefined;
}

/**
 * Plans how to build instances of `cls` and every DTO nested under it without class-transformer.
 *
 * @returns `{ plan }`, or `{ reason }` naming what class-transformer would do differently.
 * @throws DecorumStartupError as `inspectDto` does.
 */
export function planInstance(
  cls: Function,
  plans = new Map<Function, InstancePlan>(),
): { plan: InstancePlan; reason?: undefined } | { plan?: undefined; reason: string } {
  const known = plans.get(cls);
  if (known) return { plan: known };
  const { properties } = inspectDto(cls);
  const probe = new (cls as new () => Record<string, unknown>)();
  if (probe.constructor !== cls) return { reason: at(cls, undefined, "its instances' constructor is not the class") };
  const reason = properties.map((p) => propertyReason(cls, p, probe)).find((r) => r !== undefined) ?? transformerReason(cls, properties);
  if (reason !== undefined) return { reason };
  const byName = new Map<string, PropertyPlan>();
  const plan: InstancePlan = {
    cls: cls as new () => Record<string, unknown>,
    properties: [],
    byName,
    required: properties.filter((p) => p.required).length,
    defaults: [],
    defined: properties
      .filter((p) => !p.required && p.constraints.size > 0 && (!p.constraints.has('isOptional') || p.constraints.has('isDefined')))
      .map((p) => p.name),
  };
  plans.set(cls, plan);
  for (const property of properties) {
    let nested: PropertyPlan['nested'];
    if (property.nested) {
      const inner = planInstance(property.nested.cls, plans);
      if (inner.reason !== undefined) return inner;
      nested = { plan: inner.plan, array: property.nested.array };
    }
    const entry: PropertyPlan = { name: property.name, required: property.required, fieldDefault: property.fieldDefault, nested };
    (plan.properties as PropertyPlan[]).push(entry);
    byName.set(property.name, entry);
    if (entry.fieldDefault) (plan.defaults as PropertyPlan[]).push(entry);
  }
  return { plan };
}

type Plain = Record<string, unknown>;
const hasOwn = (value: object, key: string) => Object.prototype.hasOwnProperty.call(value, key);

/** class-transformer's test for keys it leaves alone on the object it fills (asked cheaply first: most keys are not the prototype's). */
function skips(target: Plain, prototype: object, key: string): boolean {
  if (hasOwn(prototype, key) && Object.getOwnPropertyDescriptor(prototype, key)!.set === undefined) return true;
  return target[key] instanceof Function;
}

/** A plain data object, as JSON.parse makes them (not a thenable: class-transformer would await it). */
function isPlainObject(value: unknown): value is Plain {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype && typeof (value as Plain).then !== 'function';
}

/** Maps the items class-transformer maps (it skips holes, as `forEach` does). */
function mapItems(items: readonly unknown[], map: (item: unknown) => unknown): unknown[] | typeof NOT_BUILT {
  const out: unknown[] = [];
  for (let i = 0; i < items.length; i++) {
    if (!(i in items)) continue;
    const item = map(items[i]);
    if (item === NOT_BUILT) return NOT_BUILT;
    out.push(item);
  }
  return out;
}

/** Data with no `@Type`: a deep copy of arrays and plain objects, primitives as they are. */
function copyData(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return mapItems(value, copyData);
  if (!isPlainObject(value)) return NOT_BUILT;
  // An own `constructor` is data here, as the full path keeps it (see free-form-data.ts).
  if (hasOwn(value, 'constructor')) return copyFreeForm(value);
  const out: Plain = {};
  for (const key of Object.keys(value)) {
    if (key === '__proto__' || skips(out, Object.prototype, key)) continue;
    const copy = copyData(value[key]);
    if (copy === NOT_BUILT) return NOT_BUILT;
    out[key] = copy;
  }
  return out;
}

/** One property's value on the instance. */
function convert(value: unknown, property: PropertyPlan | undefined): unknown {
  const nested = property?.nested;
  if (nested === undefined || value === undefined) return copyData(value);
  if (!nested.array) return buildInstance(value, nested.plan);
  return Array.isArray(value) ? mapItems(value, (item) => buildInstance(item, nested.plan)) : NOT_BUILT;
}

/**
 * Builds the instance the class-validator path would hand the handler for `plain`, or says it
 * cannot (see the file comment). Never touches `plain`; `@Field` defaults are copied per call
 * (they are JSON data, so a copy is what `structuredClone` would give).
 *
 * @param plain - the value to build from; only plain data objects (as `JSON.parse` makes them) are built.
 * @param plan - from `planInstance`.
 */
export function buildInstance(plain: unknown, plan: InstancePlan): Record<string, unknown> | typeof NOT_BUILT {
  if (!isPlainObject(plain)) return NOT_BUILT;
  // The first step reads own properties, class-transformer enumerable ones: counting both tells
  // whether they agree (a non-enumerable own property would be read by one and not the other).
  let own = 0;
  for (const { name } of plan.properties) if (hasOwn(plain, name)) own++;
  let enumerable = 0;
  let required = 0;
  const out = new plan.cls();
  const prototype = plan.cls.prototype as object;
  for (const key of Object.keys(plain)) {
    if (key === '__proto__' || key === 'constructor') continue;
    const property = plan.byName.get(key);
    // A planned property is never skipped (propertyReason): only other keys are asked.
    if (property === undefined && skips(out, prototype, key)) continue;
    let value = plain[key];
    if (property !== undefined) {
      enumerable++;
      if (value !== undefined) required += property.required ? 1 : 0;
      else if (property.fieldDefault) value = property.fieldDefault.value; // copied by convert
    }
    value = convert(value, property);
    if (value === NOT_BUILT) return NOT_BUILT;
    out[key] = value;
  }
  // A required property absent or `undefined` is an issue the full path reports.
  if (enumerable !== own || required !== plan.required) return NOT_BUILT;
  for (const property of plan.defaults) {
    const { name } = property;
    if (hasOwn(plain, name)) continue; // present, or an own `undefined` already replaced in place above
    const value = convert(property.fieldDefault!.value, property);
    if (value === NOT_BUILT) return NOT_BUILT;
    out[name] = value;
  }
  for (const name of plan.defined) if (out[name] === undefined) return NOT_BUILT;
  return out;
}
