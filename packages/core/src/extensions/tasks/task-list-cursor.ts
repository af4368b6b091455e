import { InvalidParamsError } from '../../errors/protocol-errors.js';
import type { TaskRecord } from './task-store.js';

/** Where a page of `TaskStore.list` ended: the last task's `createdAt` and id (the list is newest first, ties by id). */
export type TaskListPlace = Pick<TaskRecord, 'createdAt' | 'taskId'>;

/** The cursor of the page after `last`, opaque to clients. */
export function writeTaskCursor(last: TaskListPlace): string {
  return Buffer.from(JSON.stringify([last.createdAt, last.taskId])).toString('base64url');
}

/** The place a cursor names; -32602 for one this server did not issue. */
export function readTaskCursor(cursor: string): TaskListPlace {
  try {
    const place: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString());
    if (Array.isArray(place) && place.length === 2 && Number.isFinite(place[0]) && typeof place[1] === 'string')
      return { createdAt: place[0] as number, taskId: place[1] };
  } catch {
    // Not base64url JSON: refused below.
  }
  throw new InvalidParamsError(`Invalid cursor: ${JSON.stringify(cursor)} is not one this server issued`);
}
