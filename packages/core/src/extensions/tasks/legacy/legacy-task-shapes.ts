/**
 * A task as MCP 2025-11-25 writes it: the flat `Task` of `tasks/get`, `tasks/list`, `tasks/cancel`
 * and `notifications/tasks/status` (`ttl`, `pollInterval`, ISO dates), and `tools/call`'s
 * `CreateTaskResult`, which nests it under `task`.
 */
import type { JsonObject } from '../../../protocol/types.js';
import type { TaskRecord } from '../task-store.js';

/** The `_meta` key that ties a message to its task (requests to the client, `tasks/result`). */
export const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/** The 2025-11-25 `Task` of a record. */
export function legacyTask(record: TaskRecord): JsonObject {
  const task: JsonObject = {
    taskId: record.taskId,
    status: record.status,
    createdAt: new Date(record.createdAt).toISOString(),
    lastUpdatedAt: new Date(record.lastUpdatedAt).toISOString(),
    ttl: record.ttlMs,
    pollInterval: record.pollIntervalMs,
  };
  if (record.statusMessage !== undefined) task.statusMessage = record.statusMessage;
  return task;
}

/** What a task-augmented `tools/call` answers on 2025-11-25: `{ task }`. */
export function legacyCreateTaskResult(record: TaskRecord): JsonObject {
  return { task: legacyTask(record) };
}

/** `_meta` with the related-task key added (a copy; `meta` is left as it is). */
export function withRelatedTask(meta: unknown, taskId: string): JsonObject {
  const base = typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? (meta as JsonObject) : {};
  return { ...base, [RELATED_TASK]: { taskId } };
}
