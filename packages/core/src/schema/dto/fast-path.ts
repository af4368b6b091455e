/**
 * The fast path of a DTO validator: where the DTO's JSON Schema decides validity exactly as
 * class-validator does (`exactSchema`) and its instances can be built without class-transformer
 * (`planInstance`), a request costs one instance build and one compiled check, synchronously.
 *
 * The check runs on the instance, i.e. on exactly what class-validator would validate —
 * initializers and `@Field` defaults included. The fast path only ever says "valid": a value it
 * cannot build or that fails the check goes to the full path, which then reports the same issues
 * it always has (or accepts a value the schema is stricter about, such as `null` for an
 * `@IsOptional` property).
 */
import type { TSchema } from 'typebox';
import type { ValidationOutcome } from '../issues.js';
import { compiledOnFirstUse } from '../typebox/typebox-compiler.js';
import type { ValidationMetadata } from './constraints.js';
import { exactSchema } from './exact-schema.js';
import { dtoTreeProperties } from './inspect.js';
import { buildInstance, NOT_BUILT, planInstance } from './instance.js';
import { beginValidation, sharePatterns } from './pattern-once.js';

/** A validator that answers synchronously when it can. */
export type DtoCheck = (value: unknown) => ValidationOutcome<object> | Promise<ValidationOutcome<object>>;

/**
 * Compiles the fast path of `cls` in front of `fullPath`, once.
 *
 * @param cls - a class-validator DTO class.
 * @param fullPath - the class-validator path, for every value the fast path does not accept.
 * @returns `{ validate }`, or `{ reason }` saying why `cls` must stay on the full path.
 * @throws DecorumStartupError as `inspectDto` does.
 */
export function compileDtoFastPath(
  cls: Function,
  fullPath: (value: unknown) => Promise<ValidationOutcome<object>>,
): { validate: DtoCheck; reason?: undefined } | { validate?: undefined; reason: string } {
  const exact = exactSchema(cls);
  if (exact.reason !== undefined) return { reason: exact.reason };
  const planned = planInstance(cls);
  if (planned.reason !== undefined) return { reason: planned.reason };
  const { plan } = planned;
  const patterns = matchesRecords(cls);
  // Compiled on the first call (typebox-compiler.ts). The schema is generated from records that
  // all have a JSON Schema counterpart; should TypeBox still refuse it, every value takes the full path.
  const compiled = compiledOnFirstUse(({ Compile }) => {
    try {
      return Compile(sharePatterns(exact.schema, patterns) as TSchema) as { Check(value: unknown): boolean };
    } catch {
      return undefined;
    }
  });
  const run = (check: { Check(value: unknown): boolean } | undefined, value: unknown) => {
    if (check) {
      try {
        const instance = buildInstance(value, plan);
        if (instance !== NOT_BUILT && check.Check(instance)) return { ok: true as const, value: instance };
      } catch {
        // A constructor or getter threw: the full path meets it again and reports it as it always has.
      }
    }
    return fullPath(value);
  };
  const validate: DtoCheck = (value) => {
    const check = compiled();
    return check instanceof Promise ? check.then((c) => run(c, value)) : run(check, value);
  };
  // With @Matches patterns, a value the check refuses must not have them tested again (pattern-once.ts).
  return {
    validate:
      patterns.length === 0
        ? validate
        : (value) => {
            beginValidation();
            return validate(value);
          },
  };
}

/** The `@Matches` records of `cls` and of every DTO nested under it. */
function matchesRecords(cls: Function): ValidationMetadata[] {
  return [...dtoTreeProperties(cls)].flatMap(({ property }) => property.constraints.get('matches') ?? []);
}
