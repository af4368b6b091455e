import type { ClientCapabilities, JsonObject, ServerCapabilities } from '@decorum/core';
import type { TaskCallOptions } from './task-options.js';

/** The Tasks extension's id (2026-07-28); its settings are `{}` on both sides. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The client's capabilities with the Tasks extension declared (what every modern request's `_meta` carries). */
export function withTasksExtension(capabilities: ClientCapabilities): ClientCapabilities {
  return { ...capabilities, extensions: { ...capabilities.extensions, [TASKS_EXTENSION]: {} } };
}

/** Whether a 2025-11-25 server runs `tools/call` as tasks (`capabilities.tasks.requests.tools.call`). */
export function servesLegacyTasks(capabilities: ServerCapabilities): boolean {
  const tasks = (capabilities as { tasks?: { requests?: { tools?: { call?: unknown } } } }).tasks;
  return typeof tasks?.requests?.tools?.call === 'object' && tasks.requests.tools.call !== null;
}

/**
 * The `task` param of a 2025-11-25 `tools/call`, or none: a tool whose `taskSupport` is
 * `required` always gets one, an `optional` one only when the caller asks for it.
 */
export function taskParam(support: string | undefined, asked: TaskCallOptions['task']): JsonObject | undefined {
  if (support !== 'required' && !(support === 'optional' && asked)) return undefined;
  const ttl = typeof asked === 'object' ? asked.ttlMs : undefined;
  return ttl === undefined ? {} : { ttl };
}
