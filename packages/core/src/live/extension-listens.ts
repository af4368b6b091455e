import type { PipelineCall } from '../pipeline/call.js';
import type { JsonObject } from '../protocol/types.js';
import type { ExtensionEvent, LiveEvent } from './events.js';

/** An extension's filter of `subscriptions/listen` as the listen reads it (`ExtensionListen`, extensions/extension.ts). */
export interface ListenFilter {
  /** The notification method its events go out as. */
  readonly method: string;
  grant(requested: unknown, call: PipelineCall): readonly string[] | Promise<readonly string[]>;
}

/** What the extensions granted one listen: the ack's fields, and the events it follows. */
export interface GrantedListens {
  /** Each asked-for field with the keys granted under it. */
  readonly ack: JsonObject;
  wants(event: ExtensionEvent): boolean;
}

/**
 * Asks each extension whose field the listen's `notifications` names which keys this caller
 * may follow (`grant` may throw: the listen is then refused with that error). `undefined` when
 * the listen names none.
 */
export async function grantListens(
  notifications: JsonObject,
  filters: ReadonlyMap<string, ListenFilter>,
  call: PipelineCall,
): Promise<GrantedListens | undefined> {
  let ack: JsonObject | undefined;
  const followed = new Map<string, Set<string>>();
  for (const [field, filter] of filters) {
    const requested = notifications[field];
    if (requested === undefined) continue;
    const keys = [...new Set(await filter.grant(requested, call))];
    (ack ??= {})[field] = keys;
    const known = followed.get(filter.method) ?? new Set<string>();
    for (const key of keys) known.add(key);
    followed.set(filter.method, known);
  }
  if (!ack) return undefined;
  return { ack, wants: (event) => followed.get(event.method)?.has(event.key) === true };
}

/** The params an extension event goes out with on one listen: its own, tagged with the listen's `_meta`. */
export function extensionEventParams(event: ExtensionEvent, tag: JsonObject): JsonObject {
  const own = event.params._meta;
  return { ...event.params, _meta: own !== null && typeof own === 'object' && !Array.isArray(own) ? { ...own, ...tag } : tag };
}

/** Whether `event` is an extension's. */
export function isExtensionEvent(event: LiveEvent): event is ExtensionEvent {
  return event.type === 'extension';
}
