/**
 * Tasks on 2026-07-28: the `io.modelcontextprotocol/tasks` extension. A call becomes a task when
 * its own `_meta` client capabilities declare the extension; a `required` tool called without it
 * is -32021 naming the extension. `isError` results complete the task (they are results).
 */
import { MissingRequiredClientCapabilityError } from '../../errors/protocol-errors.js';
import { isJsonObject } from '../../protocol/json-object.js';
import type { Result } from '../../protocol/types.js';
import { TASKS_EXTENSION_ID } from '../core-methods.js';
import type { TaskEra } from './task-era.js';
import { createTaskResult, detailedTask } from './task-shapes.js';

export const modernTaskEra: TaskEra = {
  name: 'modern',
  runsAsTask(call, support) {
    const extensions = call.clientCapabilities.extensions;
    if (isJsonObject(extensions) && extensions[TASKS_EXTENSION_ID] !== undefined) return true;
    if (support.support === 'optional') return false;
    throw new MissingRequiredClientCapabilityError(
      `This tool runs only as a task: declare the extension "${TASKS_EXTENSION_ID}" in the request's client capabilities`,
      {
        extensions: { [TASKS_EXTENSION_ID]: {} },
      },
    );
  },
  created: createTaskResult,
  detailed: (record) => ({ resultType: 'complete', ...detailedTask(record) }),
  // The inlined result is a whole CallToolResult, resultType "complete" included (B-09; the official ext-tasks client requires it).
  settled: (result: Result) => ({ status: 'completed', result: { ...result, resultType: 'complete' } }),
};
