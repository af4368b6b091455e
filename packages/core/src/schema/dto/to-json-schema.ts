/**
 * JSON Schema 2020-12 from an inspected DTO (`inspect.ts`): the properties' keywords as the
 * inspection computed them, nested DTOs as `$defs` of the root that uses them.
 */
import type { JsonSchema } from '../json-schema.js';
import { inspectDto, type DtoProperty } from './inspect.js';

/** Nested DTOs met while generating one root schema, named uniquely within it. */
class Definitions {
  private readonly names = new Map<Function, string>();
  private readonly taken = new Set<string>();
  readonly schemas: Record<string, JsonSchema> = {};

  constructor(private readonly root: Function) {}

  /** A `$ref` to `cls`; the first time, also its definition (registered first, so recursion ends at the ref). */
  ref(cls: Function): JsonSchema {
    if (cls === this.root) return { $ref: '#' };
    let name = this.names.get(cls);
    if (name === undefined) {
      const base = cls.name || 'Anonymous';
      name = base;
      for (let n = 2; this.taken.has(name); n++) name = `${base}_${n}`;
      this.taken.add(name);
      this.names.set(cls, name);
      this.schemas[name] = {};
      Object.assign(this.schemas[name], objectSchema(cls, this));
    }
    return { $ref: `#/$defs/${name}` };
  }
}

function propertySchema(property: DtoProperty, defs: Definitions): JsonSchema {
  const ref = property.nested ? defs.ref(property.nested.cls) : undefined;
  if (property.items !== undefined) {
    const items = { ...ref, ...property.items };
    return { ...property.self, ...(Object.keys(items).length > 0 ? { items } : {}), ...property.annotations };
  }
  return { ...ref, ...property.self, ...property.annotations };
}

function objectSchema(cls: Function, defs: Definitions): JsonSchema {
  const { properties } = inspectDto(cls);
  const schema: JsonSchema = { type: 'object', properties: Object.fromEntries(properties.map((p) => [p.name, propertySchema(p, defs)])) };
  const required = properties.filter((p) => p.required).map((p) => p.name);
  if (required.length > 0) schema.required = required;
  return schema;
}

/**
 * The JSON Schema 2020-12 of a DTO class (no `$schema`: MCP defaults to 2020-12): an object
 * with `properties` and `required`; nested DTOs are `$defs` of the root (`#/$defs/Address`,
 * `Address_2` for a second class of that name), and a DTO that contains itself ends at a `$ref`.
 *
 * @param cls - a class whose properties carry class-validator decorators (and optionally `@Field`).
 * @returns a fresh schema object on every call.
 * @throws DecorumStartupError as {@link inspectDto} does.
 */
export function dtoToJsonSchema(cls: Function): JsonSchema {
  const defs = new Definitions(cls);
  const schema = objectSchema(cls, defs);
  if (Object.keys(defs.schemas).length > 0) schema.$defs = defs.schemas;
  return schema;
}
