import 'reflect-metadata';

/** Schema facts class-validator has no decorator for. */
export interface FieldOptions {
  description?: string;
  title?: string;
  /** Used when the argument is absent, and shown as the schema's `default`. */
  default?: unknown;
  examples?: unknown[];
  /**
   * Mirror this argument into the `Mcp-Param-{name}` HTTP header (`x-mcp-header`), so gateways
   * can route on it. Only for string, integer and boolean properties; never for secrets.
   */
  mcpHeader?: string;
}

const FIELD_METADATA = Symbol.for('decorum:field');

/** Describes a DTO property for its generated JSON Schema (description, default, header mirroring). */
export function Field(options: FieldOptions): PropertyDecorator {
  return (target, propertyKey) => {
    // Merge: decorators run bottom-up, so @McpHeader below @Field has already recorded its part.
    const existing = (Reflect.getMetadata(FIELD_METADATA, target, propertyKey) ?? {}) as FieldOptions;
    Reflect.defineMetadata(FIELD_METADATA, Object.freeze({ ...existing, ...options }), target, propertyKey);
  };
}

/** Shorthand for `@Field({ mcpHeader: name })`: mirror the argument into `Mcp-Param-{name}`. */
export function McpHeader(name: string): PropertyDecorator {
  return (target, propertyKey) => {
    const existing = (Reflect.getMetadata(FIELD_METADATA, target, propertyKey) ?? {}) as FieldOptions;
    Reflect.defineMetadata(FIELD_METADATA, Object.freeze({ ...existing, mcpHeader: name }), target, propertyKey);
  };
}

/** The `@Field` options of a DTO property, if any. */
export function fieldOptions(prototype: object, propertyKey: string): FieldOptions | undefined {
  return Reflect.getMetadata(FIELD_METADATA, prototype, propertyKey) as FieldOptions | undefined;
}
