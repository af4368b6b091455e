/**
 * 2025-11-25 core tasks as one of the Tasks extension's eras (`task-era.ts`): a call becomes a task
 * when it sends `params.task` (a `required` tool without it, or a tool without task support with
 * it, is -32601); the client's `ttl` is kept up to the tool's; the answer nests the Task under
 * `task`; `isError` fails the task; the detached run asks through the session.
 */
import { LATEST_LEGACY_PROTOCOL_VERSION } from '../../../era/versions.js';
import type { TaskEra } from '../task-era.js';
import { legacyTaskParam } from './legacy-task-negotiation.js';
import { legacySessionOf } from './legacy-task-requestor.js';
import { legacyCreateTaskResult, legacyTask } from './legacy-task-shapes.js';
import { legacyTasksOf } from './legacy-tasks.js';

/** The cause a legacy task's `isError` end gives (its result is kept for `tasks/result`). */
const TOOL_ERROR = 'The tool reported an error (isError); tasks/result returns its result';

export const legacyTaskEra: TaskEra = {
  name: LATEST_LEGACY_PROTOCOL_VERSION,
  runsAsTask: (call, support) => legacyTaskParam(call.params, support.support, LATEST_LEGACY_PROTOCOL_VERSION, String(call.params.name)) !== undefined,
  support(params, support) {
    const ttl = legacyTaskParam(params, support.support, LATEST_LEGACY_PROTOCOL_VERSION, String(params.name))?.ttl;
    // A legacy task starts at once: `start: 'handler'` hands MRTR rounds over, which this era has not.
    const ttlMs = ttl === undefined ? support.ttlMs : support.ttlMs === null ? ttl : Math.min(ttl, support.ttlMs);
    return { ...support, ttlMs, start: 'immediate' };
  },
  session: legacySessionOf,
  derive: (call, record, signal, store) => legacyTasksOf(store).derive(call, record, signal),
  created: legacyCreateTaskResult,
  detailed: legacyTask,
  settled: (result) => (result.isError === true ? { status: 'failed', result, statusMessage: TOOL_ERROR } : { status: 'completed', result }),
};
