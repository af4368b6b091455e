/**
 * Finds DTO properties that a request can fill but no class-validator decorator checks: the
 * schema leaves them out, yet class-transformer copies a client's value into them, so the
 * handler would get it unvalidated. A start-up error names them instead (see `inspectDto`).
 *
 * What can be seen: properties a no-argument instance owns (every field under define semantics —
 * ES2022 targets, swc, esbuild — and, without them, fields with an initializer or a constructor
 * assignment) and properties that carry only class-transformer decorators (`@Expose`, `@Type`,
 * `@Transform`). What cannot: a bare `x!: T` with no decorator at all, compiled with
 * `useDefineForClassFields: false` — it leaves no trace at run time.
 */
import { defaultMetadataStorage } from 'class-transformer/cjs/storage.js';
import { DecorumStartupError, StartupErrorCode } from '../../errors/startup-error.js';

// `getExposedMetadatas` is public; `@Type` and `@Transform` records are only in these maps
// (class-transformer 0.5 keeps them per class, then per property).
const transformerStorage = defaultMetadataStorage as unknown as {
  getExposedMetadatas(target: Function): { propertyName: string | undefined }[];
  getExcludedMetadatas(target: Function): { propertyName: string | undefined }[];
  _typeMetadatas?: Map<Function, Map<string, unknown>>;
  _transformMetadatas?: Map<Function, Map<string, unknown>>;
};

/** The class and its ancestors (not `Object`). */
function lineage(cls: Function): Function[] {
  const chain: Function[] = [];
  for (let c: Function | null = cls; c && c !== Function.prototype && c.prototype; c = Object.getPrototypeOf(c) as Function | null) chain.push(c);
  return chain;
}

/** Property names class-transformer knows of on `cls` (and its ancestors), from any of its decorators. */
function transformerProperties(cls: Function): string[] {
  const names = transformerStorage.getExposedMetadatas(cls).map((m) => m.propertyName);
  for (const c of lineage(cls)) {
    names.push(...(transformerStorage._typeMetadatas?.get(c)?.keys() ?? []));
    names.push(...(transformerStorage._transformMetadatas?.get(c)?.keys() ?? []));
  }
  return names.filter((name): name is string => typeof name === 'string');
}

/** The properties of `cls` that a request could set but nothing validates. */
function unvalidatedProperties(cls: Function, decorated: ReadonlySet<string>, probe: Record<string, unknown>): string[] {
  const excluded = new Set(transformerStorage.getExcludedMetadatas(cls).map((m) => m.propertyName));
  // class-transformer never overwrites a function an instance already holds, so such a field takes no input.
  const own = Object.keys(probe).filter((name) => !(probe[name] instanceof Function));
  return [...new Set([...own, ...transformerProperties(cls)])].filter((name) => !decorated.has(name) && !excluded.has(name));
}

/**
 * Throws `DECORUM_ERR_UNVALIDATED_PROPERTY` naming each property of `cls` that nothing validates.
 *
 * @param decorated - the properties with a class-validator decorator (`@Allow()` included) or `@Field`.
 * @param probe - a no-argument instance of `cls`.
 */
export function refuseUnvalidated(cls: Function, decorated: ReadonlySet<string>, probe: Record<string, unknown>): void {
  const names = unvalidatedProperties(cls, decorated, probe);
  if (names.length === 0) return;
  const listed = names.map((name) => `${cls.name || '(anonymous)'}.${name}`).join(', ');
  throw new DecorumStartupError(
    StartupErrorCode.UNVALIDATED_PROPERTY,
    `${listed} ${names.length === 1 ? 'has' : 'have'} no class-validator decorator: left out of the schema, yet a client could set ` +
      `${names.length === 1 ? 'it' : 'them'} and the handler would get the value unvalidated. Add a validation decorator (e.g. @IsString(), @IsOptional()), ` +
      "class-validator's @Allow() to accept the value as it comes, or class-transformer's @Exclude() for internal state a client must not set",
  );
}
