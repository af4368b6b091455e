import type { RequestContext } from '../context/request-context.js';
import { COMPLETE_METADATA, recordOn, type CompleteRecord, type CompletionTarget } from './metadata.js';
import { isStandardContext, recordStandard, standardMemberName, type DualMethodDecorator } from './standard.js';

export type { CompletionTarget } from './metadata.js';

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

/**
 * Makes a method the completer of one prompt argument (`{ prompt: 'greet', argument: 'language' }`)
 * or resource-template variable (`{ resource: 'users://{id}', argument: 'id' }`) for
 * `completion/complete`. It is called as `(value, ctx)` with the partial value and a context that
 * carries the other arguments already chosen; it returns suggestions, best first (at most 100 are
 * sent; more set `hasMore`). The `completions` capability is advertised only when a completer exists.
 * Like the other decorators it only records; the scanner builds the completer.
 */
export function Complete(target: CompletionTarget): DualMethodDecorator {
  return ((proto: object, key: string | symbol | object) => {
    if (isStandardContext(key)) {
      const record: CompleteRecord = { propertyKey: standardMemberName(key, 'method', '@Complete'), target };
      recordStandard(key, COMPLETE_METADATA, record, '@Complete');
      return;
    }
    recordOn<CompleteRecord>(proto, COMPLETE_METADATA, { propertyKey: String(key), target });
  }) as DualMethodDecorator;
}
