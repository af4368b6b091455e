/**
 * `@Field`: the schema facts class-validator has no decorator for (description, title,
 * default, examples, header mirroring). Like every Decorum decorator it only records, via
 * reflect-metadata; `schema/dto/inspect.ts` reads the record when a schema is compiled.
 */
import 'reflect-metadata';
import { isStandardContext, recordStandard, standardMemberName, standardRecords, type DualFieldDecorator } from './standard.js';

/** Schema facts class-validator has no decorator for. */
export interface FieldOptions {
  /** JSON Schema `description`: what the model reads to choose a value. */
  description?: string;
  /** JSON Schema `title`: a short human-facing label. */
  title?: string;
  /**
   * Used when the argument is absent (the validator fills it in before checking), and shown as
   * the schema's `default`. Give JSON data; it is copied for every request that needs it.
   */
  default?: unknown;
  /** JSON Schema `examples`. */
  examples?: unknown[];
  /**
   * Mirror this argument into the `Mcp-Param-{name}` HTTP header (`x-mcp-header`), so gateways
   * can route on it. Only for string, integer and boolean properties; never for secrets.
   */
  mcpHeader?: string;
}

const FIELD_METADATA = Symbol.for('decorum:field');
/** The keys of one prototype that carry `@Field`: without `useDefineForClassFields` a bare `x!: T` leaves no own key to find. */
const FIELD_KEYS = Symbol.for('decorum:field-keys');

function record(target: object, propertyKey: string | symbol, options: FieldOptions): void {
  // Merge: decorators run bottom-up, so a @McpHeader below @Field has already recorded its part.
  const existing = (Reflect.getOwnMetadata(FIELD_METADATA, target, propertyKey) ?? {}) as FieldOptions;
  Reflect.defineMetadata(FIELD_METADATA, Object.freeze({ ...existing, ...options }), target, propertyKey);
  if (typeof propertyKey !== 'string') return;
  const keys = (Reflect.getOwnMetadata(FIELD_KEYS, target) ?? []) as string[];
  if (!keys.includes(propertyKey)) Reflect.defineMetadata(FIELD_KEYS, [...keys, propertyKey], target);
}

/** A standard field decorator's record: kept on the class until a schema is compiled from it. */
interface StandardFieldRecord {
  propertyKey: string;
  options: FieldOptions;
}

/** Legacy decorators record on the prototype at once; standard ones into `context.metadata`, moved there on first read. */
function fieldDecorator(decorator: string, options: FieldOptions): DualFieldDecorator {
  return ((target: object, key: string | symbol | object) => {
    if (isStandardContext(key)) recordStandard(key, FIELD_METADATA, { propertyKey: standardMemberName(key, 'field', decorator), options }, decorator);
    else record(target, key as string | symbol, options);
  }) as DualFieldDecorator;
}

const adopted = new WeakSet<object>();

/** Moves the standard `@Field` records of a prototype's class onto the prototype, once. */
function adoptStandard(prototype: object): void {
  if (adopted.has(prototype)) return;
  adopted.add(prototype);
  const ctor = (prototype as { constructor?: unknown }).constructor;
  if (typeof ctor !== 'function' || ctor.prototype !== prototype) return;
  for (const { propertyKey, options } of standardRecords<StandardFieldRecord>(ctor, FIELD_METADATA)) record(prototype, propertyKey, options);
}

/**
 * Describes a DTO property for its generated JSON Schema.
 *
 * @example
 * ```ts
 * class Search {
 *   @Field({ description: 'Full-text query', examples: ['mcp'] }) @IsString() q!: string;
 *   @Field({ default: 10 }) @IsInt() @Min(1) limit!: number;
 * }
 * ```
 */
export function Field(options: FieldOptions): DualFieldDecorator {
  return fieldDecorator('@Field', options);
}

/** Shorthand for `@Field({ mcpHeader: name })`: mirror the argument into `Mcp-Param-{name}`. */
export function McpHeader(name: string): DualFieldDecorator {
  return fieldDecorator('@McpHeader', { mcpHeader: name });
}

/** The `@Field` options of a DTO property (inherited ones included), if any. */
export function fieldOptions(prototype: object, propertyKey: string): FieldOptions | undefined {
  for (let p: object | null = prototype; p && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null) adoptStandard(p);
  return Reflect.getMetadata(FIELD_METADATA, prototype, propertyKey) as FieldOptions | undefined;
}

/** Every property key of a prototype and its ancestors that carries `@Field`, ancestors first. */
export function fieldKeys(prototype: object): string[] {
  const chain: object[] = [];
  for (let p: object | null = prototype; p && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null) chain.unshift(p);
  const keys = new Set<string>();
  for (const p of chain) adoptStandard(p);
  for (const p of chain) for (const key of (Reflect.getOwnMetadata(FIELD_KEYS, p) ?? []) as string[]) keys.add(key);
  return [...keys];
}
