/**
 * Free-form data under a DTO property (`@IsObject()`, `@IsArray()` without `@Type`) with an own
 * `constructor` key — `{"constructor": "x"}` is valid JSON and valid input. class-transformer
 * takes such a key for the class to instantiate and throws ("targetType is not a constructor"), so
 * the full path keeps such values away from it and puts a copy back on the built instance; the
 * fast path copies them the same way (`instance.ts`). The handler gets the data as sent, minus
 * `__proto__` keys (never copied, as everywhere).
 */

type Plain = Record<string, unknown>;

/** True when `value` (an object or array, at any depth) holds a plain object with an own `constructor` key. */
export function holdsConstructorKey(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(holdsConstructorKey);
  if (Object.prototype.hasOwnProperty.call(value, 'constructor')) return true;
  for (const key of Object.keys(value)) if (holdsConstructorKey((value as Plain)[key])) return true;
  return false;
}

/**
 * A deep copy of JSON data as class-transformer copies it — `__proto__` dropped, and keys that
 * name a method of a plain object (`toString`, …) skipped — except that an own `constructor` key
 * is kept as data.
 */
export function copyFreeForm(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copyFreeForm);
  const out: Plain = {};
  for (const key of Object.keys(value)) {
    if (key === '__proto__' || (key !== 'constructor' && out[key] instanceof Function)) continue;
    out[key] = copyFreeForm((value as Plain)[key]); // an own data property, also for `constructor`
  }
  return out;
}

/** A free-form value taken out before class-transformer runs, by its pointer in the DTO. */
export interface DetachedValue {
  readonly path: readonly string[];
  readonly value: unknown;
}

/**
 * Puts detached values back on the built instance, at their paths — where class-transformer
 * copied the `undefined` left in their place (not where it skips the key: a method's name).
 */
export function reattach(instance: object, detached: readonly DetachedValue[]): void {
  for (const { path, value } of detached) {
    let holder = instance as Plain;
    for (const segment of path.slice(0, -1)) holder = holder[segment] as Plain;
    const key = path[path.length - 1];
    if (Object.prototype.hasOwnProperty.call(holder, key) && holder[key] === undefined) holder[key] = value;
  }
}
