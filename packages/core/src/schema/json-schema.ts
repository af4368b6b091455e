/**
 * The JSON Schema type every schema source compiles to, and the two small operations all of
 * them need: freezing a finished schema (the registry hands one object to every request) and
 * turning a JavaScript value into JSON data (for `default`, which must survive serialization).
 */

/** A JSON Schema (2020-12) document or subschema, as plain JSON. */
export type JsonSchema = Record<string, unknown>;

/** Freezes a schema and everything under it; returns it for chaining. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * `value` as JSON data, or `undefined` when it is not data: functions, symbols, bigints,
 * non-finite numbers and instances of classes (a `Date`, a `Map`) are left out rather than
 * coerced, because a schema `default` that changed on the way to the client would lie.
 */
export function toJsonData(value: unknown): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (Array.isArray(value)) {
    const items = value.map(toJsonData);
    return items.every((item) => item !== undefined) ? items : undefined;
  }
  if (typeof value === 'object') {
    const prototype = Object.getPrototypeOf(value) as unknown;
    if (prototype !== Object.prototype && prototype !== null) return undefined;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      const data = toJsonData(child);
      if (data === undefined) return undefined;
      out[key] = data;
    }
    return out;
  }
  return undefined;
}
