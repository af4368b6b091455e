/**
 * One task while this instance runs its handler: the abort of `ctx.signal` (cancel, TTL), the
 * asks that park it, the coalesced `ctx.progress` → `statusMessage`, and every write to its record
 * in order. Made before the handler starts; a `start: 'handler'` tool's run gets its record later.
 */
import type { Logger } from 'pino';
import type { InputRequest } from '../../asks/ask-types.js';
import type { ClientCapabilities } from '../../protocol/types.js';
import { TaskAsks, type AskingTask } from './task-asks.js';
import type { TaskPatch, TaskRecord, TaskStatus, TaskStore } from './task-store.js';

/** Statuses a running task's own writes apply in (never after it ended). */
const LIVE: { readonly statuses: readonly TaskStatus[] } = { statuses: ['working', 'input_required'] };

/** Why a task's `ctx.signal` aborted. */
export class TaskEndedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AbortError';
  }
}

export class RunningTask implements AskingTask {
  private readonly controller = new AbortController();
  private current: TaskRecord | undefined;
  private taskAsks: TaskAsks | undefined;
  private writes: Promise<unknown> = Promise.resolve();
  private ttlTimer: NodeJS.Timeout | undefined;
  private statusTimer: NodeJS.Timeout | undefined;
  private lastStatusAt = 0;
  private pendingStatus: string | undefined;
  /** Set once another instance took the task over: this run stops and writes nothing more. */
  private lost = false;

  constructor(
    private readonly store: TaskStore,
    private readonly log: Logger,
    private readonly statusIntervalMs: number,
    private readonly journalLimitBytes: number,
    /** Told of every record this task's own writes made (notifications). */
    private readonly changed: (record: TaskRecord) => void,
  ) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The record, once the task exists. */
  get record(): TaskRecord {
    if (!this.current) throw new Error('RunningTask.record read before the task was created');
    return this.current;
  }

  get asks(): TaskAsks | undefined {
    return this.taskAsks;
  }

  /** The task exists: its asks, and its TTL (the signal aborts when it ends). */
  begin(record: TaskRecord, capabilities: ClientCapabilities, now: number): TaskAsks {
    this.current = record;
    if (record.ttlMs !== null) {
      const left = Math.max(0, record.createdAt + record.ttlMs - now);
      this.ttlTimer = setTimeout(() => this.abort(new TaskEndedError('The task reached its TTL (ttlMs) and was removed')), left);
      this.ttlTimer.unref();
    }
    return (this.taskAsks = new TaskAsks(this, capabilities, this.journalLimitBytes));
  }

  /** Another instance took the task over (it claimed the lease): aborts the handler, whose writes are dropped from now on. */
  lose(): void {
    this.lost = true;
    this.abort(new TaskEndedError('Another server instance took this task over'));
  }

  /** Aborts the handler's `ctx.signal` (cancel, TTL, the task ended elsewhere). */
  abort(reason: Error): void {
    if (!this.controller.signal.aborted) this.controller.abort(reason);
  }

  park(outstanding: Readonly<Record<string, InputRequest>>): void {
    const waiting = Object.keys(outstanding).length > 0;
    this.write({ status: waiting ? 'input_required' : 'working', inputRequests: outstanding as TaskRecord['inputRequests'] });
  }

  journal(entries: Readonly<Record<string, unknown>>): void {
    this.write({ journal: { ...entries } });
  }

  /** `ctx.progress` of the task: its `statusMessage` (the message, else "progress/total"), written at most once per interval. */
  progress(progress: number, total?: number, message?: string): void {
    this.pendingStatus = message ?? (total === undefined ? String(progress) : `${progress}/${total}`);
    if (this.statusTimer !== undefined || !this.current) return;
    const wait = this.lastStatusAt + this.statusIntervalMs - Date.now();
    if (wait <= 0) return this.flushStatus();
    this.statusTimer = setTimeout(() => this.flushStatus(), wait);
    this.statusTimer.unref();
  }

  private flushStatus(): void {
    this.statusTimer = undefined;
    this.lastStatusAt = Date.now();
    if (this.pendingStatus !== undefined) this.write({ statusMessage: this.pendingStatus });
  }

  /** A write while the task is live, after every earlier one. */
  private write(patch: TaskPatch): void {
    const taskId = this.record.taskId;
    this.writes = this.writes.then(async () => {
      if (this.lost) return;
      try {
        const after = await this.store.transition(taskId, patch, LIVE);
        if (after) {
          this.current = after;
          this.changed(after);
          // An answer stored before this park was written (a replay racing an update) resumes its ask now.
          this.taskAsks?.answered(after);
        }
      } catch (error) {
        this.log.error({ err: error, taskId }, 'task store write failed');
      }
    });
  }

  /** Ends the task with `patch` (unless it already ended: then the late outcome is dropped); the record after, if written. */
  async finish(patch: TaskPatch): Promise<TaskRecord | undefined> {
    clearTimeout(this.ttlTimer);
    clearTimeout(this.statusTimer);
    const taskId = this.record.taskId;
    await this.writes;
    if (this.lost) {
      this.log.info({ taskId, status: patch.status }, "task taken over by another instance; this run's outcome is dropped");
      return undefined;
    }
    const after = await this.store.transition(taskId, patch, LIVE);
    if (after) this.changed(after);
    else this.log.debug({ taskId, status: patch.status }, 'task already ended; its late outcome is dropped');
    return after;
  }
}
