/**
 * The 2025-11-25 `tasks/*` methods on a legacy session (L§Getting Tasks … L§Task Cancellation):
 * `tasks/get` answers the flat Task; `tasks/result` blocks until the task is terminal, then answers
 * exactly what the call would have (its result, or its JSON-RPC error) with the related-task
 * `_meta`, its stream taking the task's asks meanwhile; `tasks/list` pages the requestor's tasks;
 * `tasks/cancel` moves the task to `cancelled` before answering, and refuses a terminal one
 * (-32602). An unknown, expired or unreachable id is -32602, all alike.
 */
import type { Logger } from 'pino';
import { SessionAskSeam } from '../../../asks/session/session-asks.js';
import type { AskSeam } from '../../../asks/handler-asks.js';
import { InternalError, InvalidParamsError } from '../../../errors/protocol-errors.js';
import { StoredCallError } from '../../../errors/stored-call-error.js';
import { TaskNotFoundError } from '../../../errors/task-errors.js';
import type { PipelineCall } from '../../../pipeline/call.js';
import type { JsonObject, Result } from '../../../protocol/types.js';
import { TERMINAL_STATUSES, type TaskRecord, type TaskStore } from '../task-store.js';
import type { LegacyTaskOutlets } from './legacy-task-outlets.js';
import { legacyRequestor, mayReach } from './legacy-task-requestor.js';
import { RELATED_TASK, legacyTask, withRelatedTask } from './legacy-task-shapes.js';
import { untilTerminal } from './task-terminal.js';

/** What a legacy `tasks/*` request is, as these methods read it. */
export interface LegacyTaskRequest extends PipelineCall {
  readonly signal: AbortSignal;
  readonly log: Logger;
  /** How the request's asks would be answered: on a legacy session, its seam (its stream). */
  readonly asks?: AskSeam | undefined;
}

/** Tasks per `tasks/list` page. */
export const LEGACY_TASK_PAGE = 50;

/** The cancel's status message (L§Task Cancellation's example wording). */
const CANCELLED = 'The task was cancelled by request.';

/** The four legacy methods over one store. */
export class LegacyTaskMethods {
  constructor(
    private readonly store: TaskStore,
    private readonly outlets: LegacyTaskOutlets,
  ) {}

  /** `tasks/get`: the flat Task. */
  async get(request: LegacyTaskRequest): Promise<Result> {
    return legacyTask(await this.reach(request));
  }

  /** `tasks/result`: waits for the end, then the call's own answer with the related-task `_meta`. */
  async result(request: LegacyTaskRequest): Promise<Result> {
    const { taskId } = await this.reach(request);
    const stream = request.asks instanceof SessionAskSeam ? request.asks.outlet : undefined;
    const release = stream ? this.outlets.hold(taskId, stream) : undefined;
    let ended: TaskRecord | undefined;
    try {
      ended = await untilTerminal(this.store, taskId, request.signal);
    } finally {
      release?.();
    }
    if (!ended) throw new TaskNotFoundError();
    if (ended.result !== undefined) return { ...ended.result, _meta: withRelatedTask(ended.result._meta, taskId) };
    if (ended.error !== undefined) throw new StoredCallError(ended.error.code, ended.error.message, ended.error.data);
    throw new InternalError(`Task ${taskId} was ${ended.status}: it has no result`, { [RELATED_TASK]: { taskId } });
  }

  /** `tasks/list`: the requestor's tasks, newest first, a page at a time. */
  async list(request: LegacyTaskRequest): Promise<Result> {
    const { cursor } = request.params;
    if (cursor !== undefined && typeof cursor !== 'string')
      throw new InvalidParamsError(`Invalid params: cursor must be a string from an earlier tasks/list, got ${JSON.stringify(cursor)}`);
    const requestor = legacyRequestor(request);
    if (requestor.owner === undefined && requestor.session === undefined) return { tasks: [] };
    const page = await this.store.list(requestor.owner, requestor.owner === undefined ? requestor.session : undefined, cursor, LEGACY_TASK_PAGE);
    const result: JsonObject = { tasks: page.records.filter((record) => mayReach(record, requestor)).map(legacyTask) };
    if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
    return result;
  }

  /** `tasks/cancel`: `cancelled` before the answer, which is the Task; a terminal task is -32602. */
  async cancel(request: LegacyTaskRequest): Promise<Result> {
    const { taskId, status } = await this.reach(request);
    if (TERMINAL_STATUSES.has(status)) throw alreadyEnded(taskId, status);
    const cancelled = await this.store.transition(taskId, { status: 'cancelled', statusMessage: CANCELLED });
    if (cancelled) return legacyTask(cancelled);
    // It ended on its own meanwhile (or expired): that end stands.
    const now = await this.store.get(taskId);
    throw now ? alreadyEnded(taskId, now.status) : new TaskNotFoundError();
  }

  /** The task the request names, if the requestor may reach it; else -32602 as for an unknown id. */
  private async reach(request: LegacyTaskRequest): Promise<TaskRecord> {
    const { taskId } = request.params;
    if (typeof taskId !== 'string' || taskId === '') throw new InvalidParamsError(`Invalid params: ${request.method} needs params.taskId (a string)`);
    const record = await this.store.get(taskId);
    if (!record) throw new TaskNotFoundError();
    if (!mayReach(record, legacyRequestor(request))) {
      request.log.info({ taskId }, 'tasks: a legacy caller asked for a task it may not reach; answered as unknown');
      throw new TaskNotFoundError();
    }
    return record;
  }
}

function alreadyEnded(taskId: string, status: string): InvalidParamsError {
  return new InvalidParamsError(`Invalid params: task ${JSON.stringify(taskId)} is already ${status}; only a working or input_required task can be cancelled`);
}
