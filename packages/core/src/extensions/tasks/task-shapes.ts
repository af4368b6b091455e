/**
 * The 2026-07-28 shapes of a task (the ext-tasks spec): the flat `CreateTaskResult` a task-making
 * `tools/call` answers, and the `DetailedTask` of `tasks/get` and `notifications/tasks`. Made
 * from the stored record; never `requestState`, never the legacy `ttl`/`pollInterval`.
 */
import type { JsonObject, Result } from '../../protocol/types.js';
import type { TaskRecord } from './task-store.js';

/** The fields every task shape carries. */
function taskFields(record: TaskRecord): JsonObject {
  const task: JsonObject = {
    taskId: record.taskId,
    status: record.status,
    createdAt: new Date(record.createdAt).toISOString(),
    lastUpdatedAt: new Date(record.lastUpdatedAt).toISOString(),
    ttlMs: record.ttlMs,
    pollIntervalMs: record.pollIntervalMs,
  };
  if (record.statusMessage !== undefined) task.statusMessage = record.statusMessage;
  return task;
}

/** `CreateTaskResult`: the task itself, flat, with `resultType: "task"`. */
export function createTaskResult(record: TaskRecord): Result {
  return { resultType: 'task', ...taskFields(record) };
}

/** `DetailedTask`: the task, plus what its status carries (asks, the result, the error). */
export function detailedTask(record: TaskRecord): JsonObject {
  const task = taskFields(record);
  switch (record.status) {
    case 'input_required':
      task.inputRequests = { ...record.inputRequests };
      break;
    case 'completed':
      if (record.result !== undefined) task.result = record.result;
      break;
    case 'failed':
      if (record.error !== undefined) task.error = { ...record.error };
      break;
  }
  return task;
}
