/**
 * The tasks this instance runs: it stores a new task (the call is answered only once the store has
 * it), runs the handler detached on a derived call, and ends the task with the handler's outcome.
 * It watches the store so that a cancel or an answer — from any instance — reaches the handler.
 */
import type { Logger } from 'pino';
import { InternalError, McpProtocolError } from '../../errors/protocol-errors.js';
import { toJsonRpcError } from '../../errors/to-json-rpc.js';
import { TaskStoreUnavailableError } from '../../errors/task-store-errors.js';
import type { CallResult } from '../../pipeline/middleware.js';
import type { Result } from '../../protocol/types.js';
import type { DerivedCallOptions, StoredToolCall } from '../extension.js';
import { RunningTask, TaskEndedError } from './running-task.js';
import { TaskAskSeam } from './task-asks.js';
import { TASK_ERAS } from './task-eras.js';
import type { TaskEra } from './task-era.js';
import { newTaskId } from './task-ids.js';
import type { TaskSupport } from './task-option.js';
import type { TaskSettings } from './task-settings.js';
import { TERMINAL_STATUSES, type TaskEvent, type TaskPatch, type TaskRecord, type TaskStore } from './task-store.js';

/** Keeps this instance's claim on the tasks it runs (`task-leases.ts`): held while running or parked. */
export interface TaskLeaseHolder {
  /** Takes (`claim`: even from an instance whose lease expired) and renews the task's lease; whether it is held. */
  hold(taskId: string, options?: { readonly claim?: boolean }): Promise<boolean>;
  release(taskId: string): void;
}

/** What a new task is made from. */
export interface NewTask {
  readonly era: TaskEra;
  readonly tool: string;
  readonly support: TaskSupport;
  readonly owner: string | undefined;
  readonly session?: string | undefined;
  /** The task's first `statusMessage`. */
  readonly statusMessage?: string;
  /** A resumable tool's call, kept for a replay elsewhere. */
  readonly call?: StoredToolCall | undefined;
}

export class TaskRunner {
  private readonly running = new Map<string, RunningTask>();
  /** The ends of the tasks running here, being written (shutdown waits for them). */
  private readonly settling = new Set<Promise<unknown>>();
  private readonly unwatch: () => void;

  constructor(
    readonly store: TaskStore,
    readonly settings: TaskSettings,
    private readonly log: Logger,
    private readonly journalLimitBytes: number,
    /** Told of every change this instance made to a task (notifications/tasks). */
    readonly changed: (record: TaskRecord) => void,
    private readonly leases?: TaskLeaseHolder,
  ) {
    this.unwatch = store.watch((event) => this.onEvent(event));
  }

  /** A task's run, before the task exists (its signal, asks and progress go to the derived call). */
  prepare(): RunningTask {
    return new RunningTask(this.store, this.log, this.settings.statusIntervalMs, this.journalLimitBytes, this.changed);
  }

  /** Stores a new task; -32603 when the store cannot (no task id is ever given that was not stored). */
  async create(task: NewTask): Promise<TaskRecord> {
    const now = Date.now();
    const record: TaskRecord = {
      taskId: newTaskId(),
      ...(task.owner === undefined ? {} : { owner: task.owner }),
      ...(task.session === undefined ? {} : { session: task.session }),
      era: task.era.name,
      tool: task.tool,
      status: 'working',
      ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
      ...(task.call === undefined ? {} : { call: task.call }),
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: task.support.ttlMs,
      pollIntervalMs: task.support.pollIntervalMs,
      inputRequests: {},
      answers: {},
      journal: {},
      version: 1,
    };
    try {
      await this.store.create(record);
    } catch (error) {
      if (error instanceof McpProtocolError) throw error;
      this.log.error({ err: error, tool: task.tool }, 'task store create failed; the call was not started');
      throw new TaskStoreUnavailableError('the call was not started', { cause: error });
    }
    return record;
  }

  /** Runs `running` (begun on `record`) to its end: `outcome` is the handler's call, already going. */
  adopt(record: TaskRecord, era: TaskEra, running: RunningTask, outcome: Promise<CallResult>): void {
    const { taskId } = record;
    this.running.set(taskId, running);
    void this.leases?.hold(taskId);
    const settled = outcome
      .then(
        // A handler whose signal we aborted (shutdown) ends with why, not with what its abort became (an isError result).
        (result) => running.finish(running.signal.aborted ? failed(running.signal.reason) : era.settled(result as Result)),
        (error: unknown) => running.finish(failed(error)),
      )
      .catch((error: unknown) => this.log.error({ err: error, taskId }, 'task could not be ended in the store'))
      .finally(() => {
        this.running.delete(taskId);
        this.settling.delete(settled);
        this.leases?.release(taskId);
      });
    this.settling.add(settled);
  }

  /**
   * Whether `record` is a parked resumable task that no live instance runs: its runner's lease
   * ended, and it does not run here. Such a task is replayed where its answer arrives.
   */
  orphaned(record: TaskRecord, now = Date.now()): boolean {
    const { call, status, runner } = record;
    return call !== undefined && status === 'input_required' && runner !== undefined && runner.leaseUntil < now && !this.running.has(record.taskId);
  }

  /** Takes an orphaned task's lease for this instance (one instance wins a race); whether it did. */
  async claim(record: TaskRecord): Promise<boolean> {
    if (!this.leases || !this.orphaned(record)) return false;
    const claimed = await this.leases.hold(record.taskId, { claim: true });
    if (claimed)
      this.log.info({ taskId: record.taskId, from: record.runner!.instance }, 'tasks: claimed a parked task whose instance stopped; replaying it here');
    return claimed;
  }

  /**
   * Replays a claimed task's handler from the top with `run` (its tool's chain on the stored call):
   * stored answers answer the asks already answered, `ctx.once` returns its journal, and the first
   * unanswered ask parks it again. Gives the lease back when the task ended meanwhile.
   */
  async replay(taskId: string, run: (derived: DerivedCallOptions) => Promise<CallResult>): Promise<void> {
    const record = await this.store.get(taskId);
    const era = record?.call ? TASK_ERAS.get(record.call.protocolVersion) : undefined;
    if (!record || !era || TERMINAL_STATUSES.has(record.status)) {
      this.leases?.release(taskId);
      return;
    }
    const running = this.prepare();
    const asks = running.begin(record, record.call!.clientCapabilities, Date.now());
    const outcome = Promise.resolve().then(() =>
      run({ signal: running.signal, asks: new TaskAskSeam(asks), progress: (p, total, message) => running.progress(p, total, message) }),
    );
    this.adopt(record, era, running, outcome);
  }

  /** This instance lost the task's lease to another (which replays it): stop running it here, writing nothing. */
  lost(taskId: string): void {
    this.running.get(taskId)?.lose();
  }

  /** A change from any instance: a cancel or an end aborts the handler; answers resume its asks. */
  private onEvent(event: TaskEvent): void {
    const taskId = event.type === 'changed' ? event.record.taskId : event.taskId;
    const running = this.running.get(taskId);
    if (!running) return;
    if (event.type === 'cancel') running.abort(new TaskEndedError('The task was cancelled'));
    else if (event.type === 'changed') {
      if (TERMINAL_STATUSES.has(event.record.status)) running.abort(new TaskEndedError(`The task ended (${event.record.status})`));
    } else {
      this.store.get(taskId).then(
        (record) => (record ? running.asks?.answered(record) : running.abort(new TaskEndedError('The task expired'))),
        (error: unknown) => this.log.error({ err: error, taskId }, 'task answers could not be read'),
      );
    }
  }

  /** Shutdown: every task running here ends `failed` ("the server shut down"), written before this resolves (at most `waitMs`). */
  async close(waitMs = 2_000): Promise<void> {
    this.unwatch();
    for (const running of this.running.values()) running.abort(new TaskEndedError('The server shut down while the task was running'));
    if (this.settling.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)));
    await Promise.race([Promise.allSettled(this.settling), bound]);
    clearTimeout(timer);
  }
}

/** How a thrown error ends a task: `failed`, with the JSON-RPC error it would have been (an end of ours says why). */
function failed(error: unknown): TaskPatch {
  const rpc = toJsonRpcError(error instanceof TaskEndedError ? new InternalError(error.message) : error);
  return { status: 'failed', error: rpc, statusMessage: rpc.message };
}
