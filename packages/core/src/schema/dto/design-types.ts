/**
 * Detects a DTO module that was evaluated before `reflect-metadata`: the compiler's metadata
 * helper (`__metadata`, swc's `_ts_metadata`) does nothing while `Reflect.metadata` is missing,
 * so the class keeps its class-validator records but loses every property type, and the
 * schema silently loses the types that only `design:type` gave it.
 *
 * The signal needs two facts. The handler's own `design:paramtypes` proves the program is
 * compiled with decorator metadata (standard decorators, esbuild and tsx leave none, and are
 * never refused here). Then a DTO with class-validator decorators on which no property has a
 * `design:type` can only have been decorated while `Reflect.metadata` did not exist yet.
 */
import 'reflect-metadata';
import { DecorumStartupError, StartupErrorCode } from '../../errors/startup-error.js';
import { dtoTreeProperties } from './inspect.js';

/** True when `source` is a DTO class: a class, and not a callable Standard Schema (ArkType's are functions). */
function isDtoClass(source: unknown): source is Function {
  return typeof source === 'function' && typeof source.prototype === 'object' && source.prototype !== null && !('~standard' in source);
}

/**
 * Throws `DECORUM_ERR_REFLECT_METADATA_LATE` when `source` (and the DTOs nested in it) lost its
 * property types to a late `reflect-metadata`; does nothing when the handler carries no metadata.
 *
 * @param source - the handler's input schema source (a DTO class is checked; anything else passes).
 * @param paramTypes - the handler's `design:paramtypes`, `undefined` when the compiler emitted none.
 * @param where - the handler, for the message (`Class.method`).
 */
export function refuseLostDesignTypes(source: unknown, paramTypes: readonly unknown[] | undefined, where: string): void {
  if (paramTypes === undefined || !isDtoClass(source)) return;
  const typed = new Map<Function, boolean>();
  for (const { cls, property } of dtoTreeProperties(source)) {
    if (property.constraints.size === 0) continue; // @Field alone: TypeScript still emits a type, but nothing here relies on one.
    const hasType = Reflect.getMetadata('design:type', cls.prototype as object, property.name) !== undefined;
    typed.set(cls, (typed.get(cls) ?? false) || hasType);
  }
  const untyped = [...typed].filter(([, hasType]) => !hasType).map(([cls]) => cls.name || '(anonymous)');
  if (untyped.length === 0) return;
  throw new DecorumStartupError(
    StartupErrorCode.REFLECT_METADATA_LATE,
    `the DTO ${untyped.join(', ')} of ${where} has no property types (design:type) although ${where} has decorator metadata: ` +
      "the DTO's module was evaluated before 'reflect-metadata' was loaded, so its types were lost. " +
      "Make import 'reflect-metadata' the first line of the entry file (before any import of a DTO module), or import it at the top of the DTO module",
  );
}
