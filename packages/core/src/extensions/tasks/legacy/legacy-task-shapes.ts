/**
 * A task as MCP 2025-11-25 writes it: the flat `Task` of `tasks/get`, `tasks/list`, `tasks/cancel`
 * and `notifications/tasks/status` (`ttl`, `pollInterval`, ISO dates), and `tools/call`'s
 * `CreateTaskResult`, which nests it under `task`.
 */
import { isJsonObject } from '../../../protocol/json-object.js';
import type { JsonObject } from '../../../protocol/types.js';
import type { TaskRecord } from '../task-store.js';
import { taskFields } from '../task-shapes.js';

/** The `_meta` key that ties a message to its task (requests to the client, `tasks/result`). */
export const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/** The 2025-11-25 `Task` of a record: the 2026-07-28 fields, with `ttl` and `pollInterval` for `ttlMs` and `pollIntervalMs`. */
export function legacyTask(record: TaskRecord): JsonObject {
  const { ttlMs, pollIntervalMs, ...task } = taskFields(record);
  return { ...task, ttl: ttlMs, pollInterval: pollIntervalMs };
}

/** What a task-augmented `tools/call` answers on 2025-11-25: `{ task }`. */
export function legacyCreateTaskResult(record: TaskRecord): JsonObject {
  return { task: legacyTask(record) };
}

/** `_meta` with the related-task key added (a copy; `meta` is left as it is). */
export function withRelatedTask(meta: unknown, taskId: string): JsonObject {
  return { ...(isJsonObject(meta) ? meta : {}), [RELATED_TASK]: { taskId } };
}
