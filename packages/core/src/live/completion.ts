import 'reflect-metadata';
import type { RequestContext } from '../context/request-context.js';
import { isStandardContext, recordStandard, standardMemberName, standardRecords, type DualMethodDecorator } from '../decorators/standard.js';
import { DecorumStartupError, StartupErrorCode } from '../errors/startup-error.js';

const COMPLETE_METADATA = Symbol.for('decorum:completers');

/** What a `@Complete` method completes: one argument of a prompt, or one variable of a resource template. */
export type CompletionTarget = { prompt: string; resource?: never; argument: string } | { resource: string; prompt?: never; argument: string };

/** The second parameter of a `@Complete` method. */
export interface CompletionContext extends RequestContext {
  /** The argument (or template variable) being completed. */
  readonly argument: string;
  /** Values the client already chose for the other arguments (`context.arguments`). */
  readonly arguments: Readonly<Record<string, string>>;
}

/** What a completer returns: the values (best first), or the values with `total`/`hasMore`. */
export type CompletionValues = readonly string[] | { values: readonly string[]; total?: number; hasMore?: boolean };

/** A completer bound to its instance: the partial value and the context in, suggestions (best first) out. */
export type Completer = (value: string, context: CompletionContext) => CompletionValues | Promise<CompletionValues>;

interface CompleteRecord {
  propertyKey: string;
  target: CompletionTarget;
}

/**
 * Makes a method the completer of one prompt argument (`{ prompt: 'greet', argument: 'language' }`)
 * or resource-template variable (`{ resource: 'users://{id}', argument: 'id' }`) for
 * `completion/complete`. It is called as `(value, ctx)` with the partial value and a context that
 * carries the other arguments already chosen; it returns suggestions, best first (at most 100 are
 * sent; more set `hasMore`). The `completions` capability is advertised only when a completer exists.
 */
export function Complete(target: CompletionTarget): DualMethodDecorator {
  return ((proto: object, key: string | symbol | object) => {
    if (isStandardContext(key)) {
      recordStandard(key, COMPLETE_METADATA, { propertyKey: standardMemberName(key, 'method', '@Complete'), target }, '@Complete');
      return;
    }
    const ctor = (proto as { constructor: object }).constructor;
    const own: CompleteRecord[] = Reflect.getOwnMetadata(COMPLETE_METADATA, ctor) ?? [];
    Reflect.defineMetadata(COMPLETE_METADATA, [...own, { propertyKey: String(key), target }], ctor);
  }) as DualMethodDecorator;
}

/** A completer bound to its instance, with where it was declared. */
export interface CompleterEntry {
  readonly key: string;
  readonly argument: string;
  readonly source: string;
  readonly complete: Completer;
}

/** The lookup key of a reference: `prompt:<name>` or `resource:<uri or template>`. */
export function completionKey(target: { prompt?: string; resource?: string }): string {
  return target.prompt !== undefined ? `prompt:${target.prompt}` : `resource:${target.resource}`;
}

/** The completers an instance's class (and ancestors) declare. */
export function collectCompleters(instance: object): CompleterEntry[] {
  const chain: object[] = [];
  for (let c: object | null = instance.constructor; c && c !== Function.prototype; c = Object.getPrototypeOf(c)) chain.unshift(c);
  const byKey = new Map<string, CompleteRecord>();
  for (const c of chain) {
    for (const record of [...(Reflect.getOwnMetadata(COMPLETE_METADATA, c) ?? []), ...standardRecords<CompleteRecord>(c, COMPLETE_METADATA)] as CompleteRecord[]) byKey.set(record.propertyKey, record);
  }
  const className = instance.constructor.name || 'AnonymousServer';
  return [...byKey.values()].map(({ propertyKey, target }) => {
    const source = `${className}.${propertyKey}`;
    const method = (instance as Record<string, unknown>)[propertyKey];
    if (typeof method !== 'function') throw new DecorumStartupError(StartupErrorCode.INVALID_DECLARATION, `${source} is decorated with @Complete but is not a method`);
    if ((target.prompt === undefined) === (target.resource === undefined) || typeof target.argument !== 'string') {
      throw new DecorumStartupError(StartupErrorCode.INVALID_DECLARATION, `@Complete on ${source} needs exactly one of prompt: or resource:, and argument:`);
    }
    return { key: completionKey(target), argument: target.argument, source, complete: (value, ctx) => (method as Completer).call(instance, value, ctx) };
  });
}
