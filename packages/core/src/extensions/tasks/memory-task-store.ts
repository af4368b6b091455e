import { InvalidParamsError } from '../../errors/protocol-errors.js';
import { TaskStoreFullError } from '../../errors/task-store-errors.js';
import type { JsonObject } from '../../protocol/types.js';
import { readTaskCursor, writeTaskCursor } from './task-list-cursor.js';
import { answered, cancelRequested, listedFor, transitioned, type TransitionExpectation } from './task-changes.js';
import { TERMINAL_STATUSES, type TaskEvent, type TaskPage, type TaskPatch, type TaskRecord, type TaskStore } from './task-store.js';
import { positiveInteger } from './positive-integer.js';

/** Options of {@link MemoryTaskStore}. */
export interface MemoryTaskStoreOptions {
  /** Most tasks held at once (default 10,000); when full, expired then the oldest finished ones make room. */
  readonly maxTasks?: number;
  /** How often expired tasks are dropped (default 60 s; reads never return them meanwhile). */
  readonly sweepIntervalMs?: number;
  /** The clock (epoch ms; default `Date.now`), for tests. */
  readonly now?: () => number;
}

/** One stored task and when it expires (`Infinity`: never). */
interface Slot {
  record: TaskRecord;
  readonly expiresAt: number;
}

/**
 * The default {@link TaskStore}: tasks in this process's memory, for one instance (several
 * instances share a `RedisTaskStore`). Bounded by `maxTasks`; a task's `ttlMs` is checked on every
 * read and expired tasks are dropped by one unref'd timer. Records are copied in and out, so
 * nobody holding one can change what is stored. `watch` hears this store's own changes.
 */
export class MemoryTaskStore implements TaskStore {
  readonly maxTasks: number;
  private readonly now: () => number;
  /** In creation order, so the first finished slot is the oldest. */
  private readonly slots = new Map<string, Slot>();
  private readonly listeners = new Set<(event: TaskEvent) => void>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(options: MemoryTaskStoreOptions = {}) {
    this.maxTasks = positiveInteger('MemoryTaskStore', 'maxTasks', options.maxTasks ?? 10_000);
    this.now = options.now ?? Date.now;
    this.sweeper = setInterval(() => this.dropExpired(), positiveInteger('MemoryTaskStore', 'sweepIntervalMs', options.sweepIntervalMs ?? 60_000));
    this.sweeper.unref();
  }

  /** How many tasks are held (expired ones not yet swept included). */
  get size(): number {
    return this.slots.size;
  }

  async create(record: TaskRecord): Promise<void> {
    if (this.slots.has(record.taskId)) throw new InvalidParamsError(`Task ${record.taskId} already exists`);
    if (this.slots.size >= this.maxTasks) this.makeRoom();
    this.slots.set(record.taskId, { record: structuredClone(record), expiresAt: record.ttlMs === null ? Infinity : record.createdAt + record.ttlMs });
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const slot = this.live(taskId);
    return slot && structuredClone(slot.record);
  }

  async transition(taskId: string, patch: TaskPatch, expect?: TransitionExpectation): Promise<TaskRecord | undefined> {
    const slot = this.live(taskId);
    const next = slot && transitioned(slot.record, patch, expect);
    return next && this.write(slot, next);
  }

  async answer(
    taskId: string,
    responses: Readonly<Record<string, JsonObject>>,
  ): Promise<{ readonly accepted: readonly string[]; readonly record: TaskRecord | undefined }> {
    const slot = this.live(taskId);
    if (!slot) return { accepted: [], record: undefined };
    const { accepted, next } = answered(slot.record, responses);
    if (!next) return { accepted, record: structuredClone(slot.record) };
    const record = this.write(slot, next);
    this.emit({ type: 'answered', taskId, keys: accepted });
    return { accepted, record };
  }

  async requestCancel(taskId: string): Promise<TaskRecord | undefined> {
    const slot = this.live(taskId);
    if (!slot) return undefined;
    const next = cancelRequested(slot.record);
    if (!next) return structuredClone(slot.record);
    const record = this.write(slot, next);
    this.emit({ type: 'cancel', taskId });
    return record;
  }

  async lease(taskId: string, instance: string, untilMs: number, options?: { readonly claim?: boolean }): Promise<boolean> {
    const slot = this.live(taskId);
    if (!slot || TERMINAL_STATUSES.has(slot.record.status)) return false;
    const { runner } = slot.record;
    const mine = runner === undefined || runner.instance === instance;
    if (!mine && !(options?.claim && runner.leaseUntil < this.now())) return false;
    // A renewal changes nothing anyone watches (no event, `lastUpdatedAt` kept); a claim is a change of runner.
    slot.record = { ...slot.record, runner: { instance, leaseUntil: untilMs }, version: slot.record.version + 1 };
    if (!mine) this.emit({ type: 'changed', record: structuredClone(slot.record) });
    return true;
  }

  async expiredLeases(nowMs: number, limit: number): Promise<readonly string[]> {
    const ids: string[] = [];
    for (const [taskId, slot] of this.slots) {
      if (ids.length >= limit) break;
      const { status, runner } = slot.record;
      if (runner !== undefined && runner.leaseUntil < nowMs && !TERMINAL_STATUSES.has(status) && slot.expiresAt > this.now()) ids.push(taskId);
    }
    return ids;
  }

  async list(owner: string | undefined, session: string | undefined, cursor: string | undefined, limit: number): Promise<TaskPage> {
    const after = cursor === undefined ? undefined : readTaskCursor(cursor);
    const now = this.now();
    const mine: TaskRecord[] = [];
    for (const slot of this.slots.values()) {
      const { record } = slot;
      if (slot.expiresAt > now && listedFor(record, owner, session)) mine.push(record);
    }
    mine.sort(newestFirst);
    const start = after === undefined ? 0 : mine.findIndex((record) => newestFirst(record, after) > 0);
    const page = start < 0 ? [] : mine.slice(start, start + limit);
    const last = page.at(-1);
    const more = start >= 0 && start + limit < mine.length && last !== undefined;
    return more
      ? { records: page.map((record) => structuredClone(record)), nextCursor: writeTaskCursor(last) }
      : { records: page.map((record) => structuredClone(record)) };
  }

  watch(listener: (event: TaskEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops the expiry sweep. */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.listeners.clear();
  }

  /** The slot of a task that exists and has not expired (an expired one is dropped on the way). */
  private live(taskId: string): Slot | undefined {
    const slot = this.slots.get(taskId);
    if (slot === undefined || slot.expiresAt > this.now()) return slot;
    this.slots.delete(taskId);
    return undefined;
  }

  /** Stores `next` with its version bumped and the time of the change, tells the watchers, and answers a copy. */
  private write(slot: Slot, next: TaskRecord): TaskRecord {
    slot.record = { ...next, version: slot.record.version + 1, lastUpdatedAt: this.now() };
    this.emit({ type: 'changed', record: structuredClone(slot.record) });
    return structuredClone(slot.record);
  }

  private emit(event: TaskEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A watcher's failure is its own; the change is stored and the other watchers still hear it.
      }
    }
  }

  /** Drops expired tasks, else the oldest finished one; refuses when every task is live and unfinished. */
  private makeRoom(): void {
    this.dropExpired();
    if (this.slots.size < this.maxTasks) return;
    for (const [taskId, slot] of this.slots) {
      if (TERMINAL_STATUSES.has(slot.record.status)) {
        this.slots.delete(taskId);
        return;
      }
    }
    throw new TaskStoreFullError(this.maxTasks);
  }

  private dropExpired(): void {
    const now = this.now();
    for (const [taskId, slot] of this.slots) if (slot.expiresAt <= now) this.slots.delete(taskId);
  }
}

/** Newest first; ties (the same millisecond) by task id, descending. */
function newestFirst(a: Pick<TaskRecord, 'createdAt' | 'taskId'>, b: Pick<TaskRecord, 'createdAt' | 'taskId'>): number {
  return b.createdAt - a.createdAt || (a.taskId < b.taskId ? 1 : a.taskId > b.taskId ? -1 : 0);
}
