/**
 * TC39 standard decorators (TypeScript ≥ 5 without `experimentalDecorators`, esbuild, tsx, Bun)
 * next to the legacy ones. Every Decorum decorator tells the two call forms apart by its second
 * argument: legacy decorators get `(target, propertyKey, descriptor?)`, standard ones
 * `(value, context)` with `context.kind`. Standard member decorators run before their class
 * exists, so they record into `context.metadata` (the class's `Symbol.metadata` object); the
 * scanner reads those records next to the legacy ones, so both forms meet in one registry path.
 */
import { DecorumStartupError, StartupErrorCode } from '../errors/startup-error.js';

// Node 20 has no Symbol.metadata, and without it TypeScript's output gives decorators no
// `context.metadata`. esbuild falls back to Symbol.for('Symbol.metadata'); using the same symbol
// keeps esbuild, TypeScript and this module on one key. It runs when @decorum/core is imported,
// which is before any class that imports a decorator from it is evaluated.
(Symbol as { metadata?: symbol }).metadata ??= Symbol.for('Symbol.metadata');

/** The part of a standard decorator context that Decorum reads. */
export interface StandardContext {
  readonly kind: 'class' | 'method' | 'getter' | 'setter' | 'field' | 'accessor';
  readonly name: string | symbol | undefined;
  readonly static?: boolean;
  readonly private?: boolean;
  readonly metadata?: Record<PropertyKey, unknown>;
}

/** A method decorator usable both ways: legacy `experimentalDecorators` or TC39 standard. */
export interface DualMethodDecorator {
  (target: object, propertyKey: string | symbol, descriptor?: PropertyDescriptor): void;
  (value: (this: never, ...args: never) => unknown, context: ClassMethodDecoratorContext): void;
}

/** A class decorator usable both ways: legacy `experimentalDecorators` or TC39 standard. */
export interface DualClassDecorator {
  (target: abstract new (...args: never) => unknown): void;
  (value: abstract new (...args: never) => unknown, context: ClassDecoratorContext): void;
}

/** A property decorator usable both ways: legacy `experimentalDecorators` or TC39 standard (a field). */
export interface DualFieldDecorator {
  (target: object, propertyKey: string | symbol): void;
  (value: undefined, context: ClassFieldDecoratorContext): void;
}

/** True when a decorator was called in the standard form `(value, context)`. */
export function isStandardContext(value: unknown): value is StandardContext {
  return typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string';
}

/**
 * The member name a standard decorator may record: public, non-static, string-named members of
 * the `kind` the decorator is for. Anything else is a start-up error that names the decorator.
 */
export function standardMemberName(context: StandardContext, kind: 'method' | 'field', decorator: string): string {
  const where = `${decorator} on ${String(context.name)}`;
  if (context.kind !== kind)
    throw new DecorumStartupError(
      StartupErrorCode.INVALID_DECLARATION,
      `${where}: it decorates ${kind === 'method' ? 'methods' : 'properties'}, not a ${context.kind}`,
    );
  if (context.static || context.private || typeof context.name !== 'string') {
    throw new DecorumStartupError(StartupErrorCode.INVALID_DECLARATION, `${where}: it needs a public, non-static member with a string name`);
  }
  return context.name;
}

/** Adds a record under `key` to the class's own standard metadata. */
export function recordStandard(context: StandardContext, key: symbol, record: unknown, decorator: string): void {
  const metadata = context.metadata;
  if (metadata === undefined) {
    throw new DecorumStartupError(
      StartupErrorCode.INVALID_DECLARATION,
      `${decorator} on ${String(context.name)}: this compiler passed standard decorators no context.metadata (Symbol.metadata). Import @decorum/core before the class is defined, or compile with experimentalDecorators`,
    );
  }
  // The metadata object inherits from the parent class's: keep this class's records its own.
  const own = Object.prototype.hasOwnProperty.call(metadata, key) ? (metadata[key] as unknown[]) : (metadata[key] = []);
  (own as unknown[]).push(record);
}

/** The records standard decorators left under `key` on `ctor` itself (not its ancestors). */
export function standardRecords<T>(ctor: object, key: symbol): T[] {
  const metadata = (ctor as Record<symbol, Record<PropertyKey, unknown> | undefined>)[(Symbol as { metadata?: symbol }).metadata as symbol];
  return metadata && Object.prototype.hasOwnProperty.call(metadata, key) ? (metadata[key] as T[]) : [];
}
