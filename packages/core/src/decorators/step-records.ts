import { classChain } from './metadata.js';
import { DecorumStartupError, StartupErrorCode } from '../errors/startup-error.js';

/**
 * A recorded guard or middleware, as the registry keeps it: a function the pipeline calls with a
 * call (naming `Guard` and `Middleware` here would close a type circle: they take a call that
 * carries its entry, which carries these).
 */
export type RecordedStep = (...args: never[]) => unknown;

/** What `@Use` and `@Guard` recorded for one tool, prompt or resource: class steps first, then the member's. */
export interface EntrySteps {
  readonly use: readonly RecordedStep[];
  readonly guards: readonly RecordedStep[];
}

export const USE_METADATA = Symbol.for('decorum:use');
export const GUARD_METADATA = Symbol.for('decorum:guards');

/** A decorator for a class (every member) or one member. */
export type ClassOrMemberDecorator = (target: object, propertyKey?: string | symbol, descriptor?: PropertyDescriptor) => void;

/** Records steps on a class or a member (decorators only record; the scanner reads). */
export function recordSteps(key: symbol, steps: readonly unknown[], decorator: string): ClassOrMemberDecorator {
  for (const step of steps) {
    if (typeof step !== 'function')
      throw new DecorumStartupError(StartupErrorCode.INVALID_DECLARATION, `@${decorator}(...) takes functions (got ${step === null ? 'null' : typeof step})`);
  }
  return (target, propertyKey) => {
    // Decorators apply bottom-up; prepending keeps the written (top-down) order.
    if (propertyKey === undefined) Reflect.defineMetadata(key, [...steps, ...((Reflect.getOwnMetadata(key, target) as unknown[]) ?? [])], target);
    else Reflect.defineMetadata(key, [...steps, ...((Reflect.getOwnMetadata(key, target, propertyKey) as unknown[]) ?? [])], target, propertyKey);
  };
}

/** Class steps of `ctor` (an ancestor's first), then the member's. */
function stepsOf<T>(key: symbol, ctor: object, propertyKey: string): T[] {
  const classSteps: T[] = [];
  for (const c of classChain(ctor)) classSteps.push(...((Reflect.getOwnMetadata(key, c) as T[] | undefined) ?? []));
  const proto = (ctor as { prototype: object }).prototype;
  return [...classSteps, ...((Reflect.getMetadata(key, proto, propertyKey) as T[] | undefined) ?? [])];
}

/** The steps the scanner stores on an entry; `undefined` when the member has none (most). */
export function entrySteps(ctor: object, propertyKey: string): EntrySteps | undefined {
  const use = stepsOf<RecordedStep>(USE_METADATA, ctor, propertyKey);
  const guards = stepsOf<RecordedStep>(GUARD_METADATA, ctor, propertyKey);
  return use.length === 0 && guards.length === 0 ? undefined : Object.freeze({ use: Object.freeze(use), guards: Object.freeze(guards) });
}
