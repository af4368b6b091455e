/**
 * The 2025-11-25 era of the Tasks extension, behind one seam the extension calls: what a legacy
 * session is offered (capabilities, tool fields), how a task-augmented `tools/call` is checked and
 * answered, how the detached run talks to the session, how its end is recorded, and the four
 * `tasks/*` methods. Sessions before 2025-11-25 get none of it: their task tools run inline.
 */
import type { Logger } from 'pino';
import { SessionAskSeam } from '../../../asks/session/session-asks.js';
import type { PipelineCall } from '../../../pipeline/call.js';
import { PROGRESS_TOKEN } from '../../../protocol/meta-keys.js';
import type { JsonObject } from '../../../protocol/types.js';
import type { DerivedCallOptions } from '../../extension.js';
import type { TaskPatch, TaskRecord, TaskStore } from '../task-store.js';
import { LegacyTaskMethods } from './legacy-task-methods.js';
import { legacyTaskParam, type LegacyTaskParam, type TaskSupport } from './legacy-task-negotiation.js';
import { LegacyTaskOutlets } from './legacy-task-outlets.js';
import { legacyRequestor, type LegacyRequestor } from './legacy-task-requestor.js';
import { LegacyTaskSession } from './legacy-task-session.js';
import { legacyCreateTaskResult } from './legacy-task-shapes.js';

/** What the legacy era needs of the installed extension. */
export interface LegacyTasksOptions {
  readonly store: TaskStore;
  /** This instance's id (names stdio's one session). */
  readonly instanceId: string;
  readonly logger: Logger;
}

/** A `tools/call` of a task tool on a 2025-11-25 session that asked for a task. */
export interface LegacyTaskCall {
  /** The session's seam: the asks of the detached run go through its session. */
  readonly seam: SessionAskSeam;
  readonly param: LegacyTaskParam;
  /** Who created it: the record's `owner` (when authenticated) and `session`. */
  readonly requestor: LegacyRequestor;
}

/** The legacy era of one installed Tasks extension. */
export class LegacyTasks {
  readonly methods: LegacyTaskMethods;
  private readonly outlets: LegacyTaskOutlets;

  constructor(private readonly options: LegacyTasksOptions) {
    this.outlets = new LegacyTaskOutlets(options.store, options.logger.child({ era: 'legacy', extension: 'tasks' }));
    this.methods = new LegacyTaskMethods(options.store, this.outlets, options.instanceId);
  }

  /**
   * A `tools/call` of a tool with task `support`: `undefined` when it is not a legacy call that asks
   * for a task (a modern call, an older revision, an optional tool called plainly); throws -32601 for
   * a `required` tool called without `task`, -32602 for a malformed one.
   */
  taskCall(call: PipelineCall, support: TaskSupport | undefined, tool: string): LegacyTaskCall | undefined {
    const seam = (call as { readonly asks?: unknown }).asks;
    if (!(seam instanceof SessionAskSeam)) return undefined;
    const param = legacyTaskParam(call.params, support, call.protocolVersion, tool);
    return param && { seam, param, requestor: legacyRequestor(call, this.options.instanceId) };
  }

  /** The answer of the call once its task is stored: `{ task }`. */
  created(record: TaskRecord): JsonObject {
    return legacyCreateTaskResult(record);
  }

  /**
   * How the detached run of a stored legacy task differs from a plain call: its asks go to the
   * session as related-task requests, its progress keeps the call's token, its log notifications
   * go where the client listens. From now until the task ends its status changes are notified.
   */
  derive(call: PipelineCall, task: LegacyTaskCall, record: TaskRecord, signal: AbortSignal): DerivedCallOptions {
    this.outlets.open(record.taskId, task.seam.session.outlet);
    const token = call.meta[PROGRESS_TOKEN];
    const session = new LegacyTaskSession(
      task.seam,
      record.taskId,
      this.options.store,
      this.outlets,
      typeof token === 'string' || typeof token === 'number' ? token : undefined,
    );
    return {
      signal,
      asks: new SessionAskSeam(session, session.outlet),
      progress: (progress, total, message) => session.progress(progress, total, message),
      notify: (method, params) => session.notify(method, params),
    };
  }

  /** How a legacy task's result ends it: `isError` is `failed`, the result kept for `tasks/result` (L§Task Execution Errors). */
  static resultPatch(result: JsonObject): TaskPatch {
    if (result.isError !== true) return { status: 'completed', result };
    return { status: 'failed', result, statusMessage: 'The tool reported an error (isError); tasks/result returns its result' };
  }

  close(): void {
    this.outlets.close();
  }
}
