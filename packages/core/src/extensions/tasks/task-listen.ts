/**
 * `notifications.taskIds` of `subscriptions/listen`: a listen follows the tasks it names, and gets
 * `notifications/tasks` (the full DetailedTask) on each change. Asking without the extension is
 * -32021; ids the caller does not own (or that do not exist) are silently left out of the ack.
 */
import { InvalidParamsError, MissingRequiredClientCapabilityError } from '../../errors/protocol-errors.js';
import { TASKS_EXTENSION_ID } from '../core-methods.js';
import type { ExtensionListen } from '../extension.js';
import { ownerOf } from './task-owner.js';
import type { TaskRunner } from './task-runner.js';

/** The notification a followed task's changes go out as. */
export const TASK_NOTIFICATION = 'notifications/tasks';

export function taskListen(runnerOf: () => TaskRunner): ExtensionListen {
  return {
    field: 'taskIds',
    method: TASK_NOTIFICATION,
    async grant(requested, call) {
      if (call.ctx.client.extensions[TASKS_EXTENSION_ID] === undefined)
        throw new MissingRequiredClientCapabilityError(
          `notifications.taskIds needs the extension "${TASKS_EXTENSION_ID}" in the request's client capabilities`,
          {
            extensions: { [TASKS_EXTENSION_ID]: {} },
          },
        );
      if (!Array.isArray(requested) || requested.some((id) => typeof id !== 'string'))
        throw new InvalidParamsError('Invalid params: notifications.taskIds must be an array of task ids (strings)');
      const ids = requested as string[];
      const owner = ownerOf(call.auth);
      const records = await Promise.all(ids.map((id) => runnerOf().store.get(id)));
      return ids.filter((_id, i) => records[i] !== undefined && records[i]!.owner === owner);
    },
  };
}
