/**
 * What a class-validator DTO says, read once per class into a `DtoShape` (schema generation in
 * `to-json-schema.ts`, validation in `validator.ts` and the fast path all read it): class-validator's metadata, each property's
 * `design:type` (reflect-metadata), class-transformer's `@Type` for nested DTOs, and `@Field`
 * for what class-validator cannot say (description, title, default, examples).
 *
 * Hand-written rather than class-validator-jsonschema: that library emits OpenAPI 3.0-flavoured
 * schemas under `#/definitions`, keys definitions globally by class name (two DTOs with the same
 * name collide) and rescans the whole metadata storage on every call. Here each DTO is inspected
 * once (`inspectDto`, cached per class) and nested DTOs become `$defs` of the root that uses them.
 *
 * Decorators this mapper does not know (IsPhoneNumber, custom @Validate…) add nothing to the
 * schema, but class-validator still enforces them at run time, so there the schema is looser
 * than the validator. The one way it is stricter: `null` for an `@IsOptional()` property, which
 * class-validator treats as absent and the schema (like TypeBox's `Optional`) does not allow.
 */
import 'reflect-metadata';
import { TransformationType } from 'class-transformer';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
// class-transformer keeps `@Type` records in a storage its index does not export. The CJS path is
// the module instance its own decorators write to under Node ESM and Jest alike (the package has
// no `exports` map; its `esm*` builds are a second copy with a second, empty storage).
import { defaultMetadataStorage } from 'class-transformer/cjs/storage.js';
// The shared ambient declaration (src/types) names only findTypeMetadata; this is the one other method read here.
const transformStorage = defaultMetadataStorage as unknown as {
  findTransformMetadatas(target: Function, property: string, type: TransformationType): unknown[];
};
import { fieldKeys, fieldOptions, type FieldOptions } from '../../decorators/field.js';
import { toJsonData, type JsonSchema } from '../json-schema.js';
import { DecorumStartupError, StartupErrorCode } from '../../errors/startup-error.js';
import { refuseUnvalidated } from './unvalidated-properties.js';
import { applyConstraints, constraintName, constraintRow, type ValidationMetadata } from './constraints.js';

/** A DTO nested in a property (`@ValidateNested() @Type(() => Cls)`), alone or as array items. */
export interface NestedDto {
  readonly cls: Function;
  readonly array: boolean;
}

/** Everything the schema generator and the validator need to know about one DTO property. */
export interface DtoProperty {
  readonly name: string;
  /** Not `@IsOptional`/`@ValidateIf`, and no default can fill it (or `@IsDefined`). */
  readonly required: boolean;
  /** Keywords about the value itself (for an array: `type: 'array'`, `minItems`, …). */
  readonly self: Readonly<JsonSchema>;
  /** Keywords about each item, for arrays (`each: true` constraints, the item type). */
  readonly items: Readonly<JsonSchema> | undefined;
  readonly nested: NestedDto | undefined;
  /** `title`, `description`, `default`, `examples`, `x-mcp-header`. */
  readonly annotations: Readonly<JsonSchema>;
  /** The `@Field({ default })` record: the one default the validator fills in itself (initializers need no help). */
  readonly fieldDefault: { readonly value: unknown } | undefined;
  /**
   * class-transformer changes the value before class-validator sees it (`@Type(() => Number)`
   * on a primitive, `@Transform`), so the plain value's type proves nothing.
   */
  readonly converted: boolean;
  /** class-validator records of this property by constraint name, in source order. */
  readonly constraints: ReadonlyMap<string, readonly ValidationMetadata[]>;
}

/** The inspected shape of one DTO class. */
export interface DtoShape {
  readonly cls: Function;
  readonly properties: readonly DtoProperty[];
}

/** Built-in constructors TypeScript emits as design types; never DTOs. */
const BUILT_INS = new Set<unknown>([Object, String, Number, Boolean, Array, Date, Function, Promise, Map, Set, Symbol, BigInt, RegExp]);

function isDtoClass(value: unknown): value is Function {
  return typeof value === 'function' && !BUILT_INS.has(value);
}

/** The JSON type a `design:type` stands for, when it stands for one. */
function designTypeSchema(designType: unknown): JsonSchema {
  if (designType === String) return { type: 'string' };
  if (designType === Number) return { type: 'number' };
  if (designType === Boolean) return { type: 'boolean' };
  if (designType === Array) return { type: 'array' };
  // A Date travels as an ISO string (class-transformer's @Type(() => Date) parses it).
  if (designType === Date) return { type: 'string', format: 'date-time' };
  if (isDtoClass(designType)) return { type: 'object' };
  return {}; // Object: a union, `unknown`, an interface — no single JSON type.
}

/** Orders keys the way a reader expects them: type first, annotations last. */
function ordered(schema: JsonSchema): JsonSchema {
  const { type, ...rest } = schema;
  return type === undefined ? rest : { type, ...rest };
}

function instantiate(cls: Function): Record<string, unknown> {
  try {
    return new (cls as new () => Record<string, unknown>)();
  } catch (error) {
    // plainToInstance will call `new cls()` for every request: fail now, and say why.
    throw new DecorumStartupError(
      StartupErrorCode.DTO_NOT_CONSTRUCTIBLE,
      `DTO class ${cls.name || '(anonymous)'} cannot be constructed without arguments (${(error as Error).message}); class-transformer needs a no-argument constructor`,
    );
  }
}

/**
 * An initializer's value as a schema `default`: only JSON data, and only when two fresh
 * instances agree — `id = randomUUID()` or `at = Date.now()` are not defaults a client can rely on.
 */
function initializerDefault(first: Record<string, unknown>, second: Record<string, unknown>, key: string): unknown {
  const a = toJsonData(first[key]);
  if (a === undefined) return undefined;
  return JSON.stringify(a) === JSON.stringify(toJsonData(second[key])) ? a : undefined;
}

function inspectProperty(
  cls: Function,
  name: string,
  metas: readonly ValidationMetadata[],
  probes: [Record<string, unknown>, Record<string, unknown>],
): DtoProperty {
  const prototype = cls.prototype as object;
  const designType = Reflect.getMetadata('design:type', prototype, name) as unknown;
  const field: FieldOptions | undefined = fieldOptions(prototype, name);
  const constraints = new Map<string, ValidationMetadata[]>();
  for (const meta of metas) constraints.set(constraintName(meta), [...(constraints.get(constraintName(meta)) ?? []), meta]);

  const optional = metas.some((m) => m.type === ValidationTypes.CONDITIONAL_VALIDATION);
  const defined = metas.some((m) => m.type === ValidationTypes.IS_DEFINED);
  const validatesNested = metas.some((m) => m.type === ValidationTypes.NESTED_VALIDATION);

  const declared = defaultMetadataStorage.findTypeMetadata(cls, name)?.typeFunction?.();
  const converted =
    (declared !== undefined && !isDtoClass(declared)) || transformStorage.findTransformMetadatas(cls, name, TransformationType.PLAIN_TO_CLASS).length > 0;
  let nested: NestedDto | undefined;
  if (validatesNested) {
    if (!isDtoClass(declared)) {
      throw new DecorumStartupError(
        StartupErrorCode.UNTYPED_NESTED_DTO,
        `${cls.name}.${name} has @ValidateNested() but no @Type(() => SomeDto) from class-transformer; ` +
          'without it the value stays a plain object and its properties are never validated',
      );
    }
    nested = { cls: declared, array: designType === Array || metas.some((m) => m.each === true) };
  }

  const isArray = designType === Array || nested?.array === true || metas.some((m) => m.each === true || (constraintName(m) === 'isArray' && !m.each));
  const system = (m: ValidationMetadata) =>
    m.type === ValidationTypes.CONDITIONAL_VALIDATION || m.type === ValidationTypes.IS_DEFINED || m.type === ValidationTypes.NESTED_VALIDATION;
  let self: JsonSchema;
  let items: JsonSchema | undefined;
  if (isArray) {
    self = { type: 'array' };
    // On an array, only array-level records describe the array; type checks without `each`
    // would reject every array, so they say nothing a schema could use.
    applyConstraints(
      self,
      metas.filter((m) => !system(m) && !m.each && constraintRow(constraintName(m))?.arrayLevel === true),
    );
    self.type = 'array';
    items = {};
    applyConstraints(
      items,
      metas.filter((m) => !system(m) && m.each === true),
    );
    if (nested && items.type === 'object') delete items.type;
  } else {
    self = nested ? {} : designTypeSchema(designType);
    applyConstraints(
      self,
      metas.filter((m) => !system(m)),
    );
  }

  const annotations: JsonSchema = {};
  if (field?.title !== undefined) annotations.title = field.title;
  if (field?.description !== undefined) annotations.description = field.description;
  const initial = initializerDefault(probes[0], probes[1], name);
  const fallback = field?.default !== undefined ? toJsonData(field.default) : initial;
  if (fallback !== undefined) annotations.default = fallback;
  if (field?.examples !== undefined) annotations.examples = toJsonData(field.examples) ?? field.examples;
  if (field?.mcpHeader !== undefined) annotations['x-mcp-header'] = field.mcpHeader;

  // A property with a default is never absent by the time class-validator looks at it (an
  // initializer runs in `new cls()`, a @Field default is filled in first), so the schema must not
  // demand it either — or it would be stricter than the validator.
  const hasDefault = field?.default !== undefined || probes[0][name] !== undefined;
  return Object.freeze({
    name,
    required: !hasDefault && (!optional || defined),
    self: Object.freeze(ordered(self)),
    items: items && Object.freeze(ordered(items)),
    nested,
    annotations: Object.freeze(annotations),
    fieldDefault: field?.default !== undefined ? Object.freeze({ value: field.default }) : undefined,
    converted,
    constraints,
  });
}

/**
 * The decorated property names in declaration order, ancestors first. With define semantics
 * for class fields (ES2022, swc, esbuild) a fresh instance lists every field in that order;
 * without them (`useDefineForClassFields: false`) it lists only fields with initializers, and
 * the order falls back to the decorators' own: TypeScript applies property decorators in
 * declaration order, so the first record of each property is in place (`@Field`-only properties
 * go after the others of their class).
 */
function declarationOrder(cls: Function, metas: readonly ValidationMetadata[], instanceKeys: string[]): string[] {
  const decorated = new Set([...metas.map((m) => m.propertyName), ...fieldKeys(cls.prototype as object)]);
  if ([...decorated].every((name) => instanceKeys.includes(name))) return instanceKeys.filter((name) => decorated.has(name));
  const chain: Function[] = [];
  for (let c: Function | null = cls; c && c !== Function.prototype && c.prototype; c = Object.getPrototypeOf(c) as Function | null) chain.unshift(c);
  const order = new Set<string>();
  for (const c of chain) {
    for (const meta of metas) if (meta.target === c) order.add(meta.propertyName);
    for (const key of fieldKeys(c.prototype as object)) order.add(key);
  }
  for (const name of decorated) order.add(name);
  return [...order];
}

const shapes = new WeakMap<Function, DtoShape>();

/**
 * Reads one DTO class (its own and inherited decorators) into a `DtoShape`, once per class.
 *
 * Properties are those with a class-validator decorator or `@Field`, in declaration order
 * (ancestors first), as a no-argument instance lists them.
 *
 * @throws DecorumStartupError: `DECORUM_ERR_DTO_NOT_CONSTRUCTIBLE` when the class cannot be
 *   constructed without arguments, `DECORUM_ERR_UNTYPED_NESTED_DTO` for `@ValidateNested()` without
 *   `@Type`, `DECORUM_ERR_EMPTY_DTO` when no property is decorated, and
 *   `DECORUM_ERR_UNVALIDATED_PROPERTY` when a property a request can set has no class-validator
 *   decorator (see `unvalidated-properties.ts`).
 */
export function inspectDto(cls: Function): DtoShape {
  const cached = shapes.get(cls);
  if (cached) return cached;
  const metas = getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false);
  const probes: [Record<string, unknown>, Record<string, unknown>] = [instantiate(cls), instantiate(cls)];
  const byName = new Map<string, ValidationMetadata[]>();
  for (const meta of metas) byName.set(meta.propertyName, [...(byName.get(meta.propertyName) ?? []), meta]);
  const names = declarationOrder(cls, metas, Object.keys(probes[0]));
  refuseUnvalidated(cls, new Set(names), probes[0]);
  if (names.length === 0) {
    throw new DecorumStartupError(
      StartupErrorCode.EMPTY_DTO,
      `DTO class ${cls.name || '(anonymous)'} has no property with a class-validator decorator or @Field, so its schema would be empty; ` +
        'decorate its properties, or declare input: null for a handler without arguments',
    );
  }
  // class-validator stores a property's decorators bottom-up; read them in source order.
  const properties = names.map((name) => inspectProperty(cls, name, [...(byName.get(name) ?? [])].reverse(), probes));
  const shape = Object.freeze({ cls, properties: Object.freeze(properties) });
  shapes.set(cls, shape);
  return shape;
}

/** Every property of `cls` and of every DTO nested under it (each class once), with its class. */
export function* dtoTreeProperties(cls: Function): Generator<{ cls: Function; property: DtoProperty }> {
  const seen = new Set<Function>();
  const pending = [cls];
  for (let c = pending.pop(); c !== undefined; c = pending.pop()) {
    if (seen.has(c)) continue;
    seen.add(c);
    for (const property of inspectDto(c).properties) {
      yield { cls: c, property };
      if (property.nested) pending.push(property.nested.cls);
    }
  }
}
