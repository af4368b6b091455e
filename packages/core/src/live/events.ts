import type { JsonObject } from '../protocol/types.js';

/**
 * The change events a live server publishes. They are plain JSON so that a bus implementation may
 * carry them between processes (a Redis bus publishes them as they are).
 */
export type LiveEvent =
  | { readonly type: 'tools/list_changed' }
  | { readonly type: 'prompts/list_changed' }
  | { readonly type: 'resources/list_changed' }
  | { readonly type: 'resources/updated'; readonly uri: string }
  | ExtensionEvent;

/**
 * An extension's event (`host.publish`): delivered as `method` with `params` to the listens whose
 * extension filter granted `key` (Tasks: `notifications/tasks` for a task id).
 */
export interface ExtensionEvent {
  readonly type: 'extension';
  readonly method: string;
  readonly key: string;
  readonly params: JsonObject;
}

/** The notification method each event is delivered as. */
export function notificationMethod(event: LiveEvent): string {
  return event.type === 'extension' ? event.method : `notifications/${event.type}`;
}

/** The kinds of primitive a live server changes at run time. */
export type LiveKind = 'tools' | 'prompts' | 'resources';

/**
 * A run-time change of a live server, as plain JSON, so that a bus spanning instances can replay it
 * on every instance (each of which then publishes its own list-changed events). `add` names a class
 * of the server's `catalogue` (its class name): a class, unlike an instance, exists on every instance.
 */
export type LiveChange =
  | { readonly op: 'enable' | 'disable' | 'remove'; readonly kind: LiveKind; readonly name: string }
  | { readonly op: 'add'; readonly className: string }
  | { readonly op: 'batch'; readonly changes: readonly LiveChange[] };
