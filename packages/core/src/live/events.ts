/**
 * The change events a live server publishes. They are plain JSON so that a bus implementation may
 * carry them between processes (a Redis bus publishes them as they are).
 */
export type LiveEvent =
  | { readonly type: 'tools/list_changed' }
  | { readonly type: 'prompts/list_changed' }
  | { readonly type: 'resources/list_changed' }
  | { readonly type: 'resources/updated'; readonly uri: string };

/** The notification method each event is delivered as. */
export function notificationMethod(event: LiveEvent): string {
  return `notifications/${event.type}`;
}
