/**
 * `@Field`: the schema facts class-validator has no decorator for (description, title,
 * default, examples, header mirroring). Like every Decorum decorator it only records, via
 * reflect-metadata; `schema/from-dto.ts` reads the record when a schema is compiled.
 */
import 'reflect-metadata';

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
export function Field(options: FieldOptions): PropertyDecorator {
  return (target, propertyKey) => record(target, propertyKey, options);
}

/** Shorthand for `@Field({ mcpHeader: name })`: mirror the argument into `Mcp-Param-{name}`. */
export function McpHeader(name: string): PropertyDecorator {
  return (target, propertyKey) => record(target, propertyKey, { mcpHeader: name });
}

/** The `@Field` options of a DTO property (inherited ones included), if any. */
export function fieldOptions(prototype: object, propertyKey: string): FieldOptions | undefined {
  return Reflect.getMetadata(FIELD_METADATA, prototype, propertyKey) as FieldOptions | undefined;
}

/** Every property key of a prototype and its ancestors that carries `@Field`, ancestors first. */
export function fieldKeys(prototype: object): string[] {
  const chain: object[] = [];
  for (let p: object | null = prototype; p && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null) chain.unshift(p);
  const keys = new Set<string>();
  for (const p of chain) for (const key of (Reflect.getOwnMetadata(FIELD_KEYS, p) ?? []) as string[]) keys.add(key);
  return [...keys];
}
