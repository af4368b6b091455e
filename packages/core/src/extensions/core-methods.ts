/**
 * The method names MCP itself defines, in both eras and both directions: an extension may not
 * take one, nor a reserved prefix (`tasks/`, `notifications/tasks/`), which belongs to Tasks.
 */

/** Requests of 2026-07-28 and 2025-11-25, server- and client-side. */
export const CORE_REQUESTS: ReadonlySet<string> = new Set([
  'initialize',
  'ping',
  'server/discover',
  'subscriptions/listen',
  'tools/list',
  'tools/call',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'completion/complete',
  'logging/setLevel',
  'sampling/createMessage',
  'elicitation/create',
  'roots/list',
]);

/** Notifications of both eras, both directions. */
export const CORE_NOTIFICATIONS: ReadonlySet<string> = new Set([
  'notifications/initialized',
  'notifications/cancelled',
  'notifications/progress',
  'notifications/message',
  'notifications/resources/updated',
  'notifications/resources/list_changed',
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
  'notifications/roots/list_changed',
  'notifications/elicitation/complete',
  'notifications/subscriptions/acknowledged',
]);

/** The id that owns the reserved prefixes. */
export const TASKS_EXTENSION_ID = 'io.modelcontextprotocol/tasks';

/** Prefixes only the Tasks extension may name methods under. */
export const RESERVED_PREFIXES: readonly string[] = ['tasks/', 'notifications/tasks/'];
