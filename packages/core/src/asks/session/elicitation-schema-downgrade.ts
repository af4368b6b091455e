/**
 * A form's `requestedSchema` in the shape 2025-06-18 defines (its `PrimitiveSchemaDefinition`): a
 * string (`minLength`, `maxLength`, `format`), a number or integer (`minimum`, `maximum`), a
 * boolean (`default`), or a string enum (`enum`, titles in `enumNames`). 2025-11-25 added defaults
 * on strings, numbers and enums, titled options (`oneOf` of `{ const, title }`) and multi-select
 * arrays. A session that negotiated 2025-06-18 gets titled options as `enum` + `enumNames` and no
 * defaults it cannot read; a multi-select field has no 2025-06-18 form (its answers hold only
 * strings, numbers and booleans), so such a form cannot be asked there.
 */
import type { JsonObject } from '../../protocol/types.js';

/** What 2025-06-18 keeps of each kind of property (anything else is left out); its EnumSchema has no length bounds or format. */
const KEPT: Record<string, readonly string[]> = {
  string: ['type', 'title', 'description', 'minLength', 'maxLength', 'format'],
  enum: ['type', 'title', 'description'],
  number: ['type', 'title', 'description', 'minimum', 'maximum'],
  integer: ['type', 'title', 'description', 'minimum', 'maximum'],
  boolean: ['type', 'title', 'description', 'default'],
};

/** The downgraded schema, or the name of the first property 2025-06-18 cannot express. */
export type DowngradedSchema = { ok: true; schema: JsonObject } | { ok: false; property: string };

/** `schema` (already in the restricted form, see `asks/elicitation-schema.ts`) as 2025-06-18 defines it. */
export function requestedSchemaFor2025_06_18(schema: JsonObject): DowngradedSchema {
  const properties: JsonObject = {};
  for (const [name, value] of Object.entries((schema.properties ?? {}) as Record<string, JsonObject>)) {
    const property = propertyFor2025_06_18(value);
    if (!property) return { ok: false, property: name };
    properties[name] = property;
  }
  return { ok: true, schema: { ...schema, properties } };
}

function propertyFor2025_06_18(property: JsonObject): JsonObject | undefined {
  const options = property.oneOf as Array<{ const: string; title: string }> | undefined;
  const isEnum = Array.isArray(property.enum) || Array.isArray(options);
  const kept = KEPT[isEnum ? 'enum' : (property.type as string)];
  if (!kept) return undefined; // a multi-select array
  const out: JsonObject = {};
  for (const key of kept) if (property[key] !== undefined) out[key] = property[key];
  if (Array.isArray(property.enum)) {
    out.enum = property.enum;
    if (Array.isArray(property.enumNames)) out.enumNames = property.enumNames;
  } else if (Array.isArray(options)) {
    out.enum = options.map((option) => option.const);
    out.enumNames = options.map((option) => option.title);
  }
  return out;
}
