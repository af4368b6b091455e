/**
 * Where tasks live (issue #50): one JSON record per task, so a store spanning instances (Redis)
 * keeps it as it is. Every change is a compare-and-set on the record; a terminal status never
 * changes again.
 *
 * THIS FILE IS THE CONTRACT the Tasks parts of #50 build against (the runner, the memory store,
 * the Redis store). Its names may grow; they are not renamed without the lead.
 */
import type { JsonObject } from '../../protocol/types.js';
import type { StoredToolCall } from '../stored-tool-call.js';

/** A task's status (both eras use the same five). */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** Statuses a task never leaves. */
export const TERMINAL_STATUSES: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

/** One stored task. Dates are epoch milliseconds; shapes on the wire are made from this. */
export interface TaskRecord {
  readonly taskId: string;
  /** Who created it (the verified principal, with its issuer); absent without authentication. */
  readonly owner?: string;
  /** The legacy session that created it (2025-11-25 tasks only). */
  readonly session?: string;
  /** `modern` (the extension) or the legacy revision that created it. */
  readonly era: string;
  readonly tool: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly createdAt: number;
  readonly lastUpdatedAt: number;
  /** Lifetime from `createdAt`; `null`: unlimited. */
  readonly ttlMs: number | null;
  readonly pollIntervalMs: number;
  /** Outstanding asks (MRTR `inputRequests` shape), by key; empty unless `input_required`. */
  readonly inputRequests: Readonly<Record<string, JsonObject>>;
  /** Answers received, by key (kept so a resumed run can replay). */
  readonly answers: Readonly<Record<string, JsonObject>>;
  /** `ctx.once` results, by name (replay on another instance). */
  readonly journal: Readonly<Record<string, unknown>>;
  /** The tool's result once `completed` (legacy: also when `failed` by `isError`). */
  readonly result?: JsonObject;
  /** The JSON-RPC error once `failed` by one. */
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
  /** Set by a cancel; the runner's signal aborts on it. */
  readonly cancelRequested?: boolean;
  /** What a replay on another instance runs (a `resumable` tool's task only): the tool, its arguments, the client's capabilities. */
  readonly call?: StoredToolCall;
  /** The instance running it and until when its lease holds (epoch ms). */
  readonly runner?: { readonly instance: string; readonly leaseUntil: number };
  /** Bumped on every write (compare-and-set). */
  readonly version: number;
}

/** What a store tells every instance that watches it. */
export type TaskEvent =
  | { readonly type: 'changed'; readonly record: TaskRecord }
  | { readonly type: 'cancel'; readonly taskId: string }
  | { readonly type: 'answered'; readonly taskId: string; readonly keys: readonly string[] };

/** A page of `TaskStore.list`: the tasks, and the cursor of the next page when there is one. */
export interface TaskPage {
  readonly records: readonly TaskRecord[];
  readonly nextCursor?: string;
}

/** The fields a transition may write. */
export type TaskPatch = Partial<Pick<TaskRecord, 'status' | 'statusMessage' | 'inputRequests' | 'answers' | 'journal' | 'result' | 'error' | 'runner'>>;

/** The store of tasks: in memory (`MemoryTaskStore`, default) or Redis (`RedisTaskStore`). */
export interface TaskStore {
  /** Stores a new task; resolves only once a `get` anywhere would find it; rejects when the store is unavailable. */
  create(record: TaskRecord): Promise<void>;
  /** The task, or `undefined` when unknown or expired. */
  get(taskId: string): Promise<TaskRecord | undefined>;
  /**
   * Writes `patch` when the task is not terminal (and, with `expect`, has one of those statuses):
   * the new record, or `undefined` when it did not apply. Bumps `version` and `lastUpdatedAt`.
   * With `expect.leaseEndedBy`, it applies only when the task's lease ended before that time
   * (epoch ms), so a sweep never fails a task whose runner renewed meanwhile.
   */
  transition(
    taskId: string,
    patch: TaskPatch,
    expect?: { readonly statuses?: readonly TaskStatus[]; readonly leaseEndedBy?: number },
  ): Promise<TaskRecord | undefined>;
  /**
   * Records answers to outstanding keys only (others are ignored): which keys it took, and the
   * record after (status back to `working` once none is outstanding).
   */
  answer(
    taskId: string,
    responses: Readonly<Record<string, JsonObject>>,
  ): Promise<{ readonly accepted: readonly string[]; readonly record: TaskRecord | undefined }>;
  /** Marks the task cancel-requested and tells its runner; the record after, or `undefined` when unknown. */
  requestCancel(taskId: string): Promise<TaskRecord | undefined>;
  /** Renews this instance's lease, or claims an expired one (`claim`); whether it holds it now. */
  lease(taskId: string, instance: string, untilMs: number, options?: { readonly claim?: boolean }): Promise<boolean>;
  /** Unfinished tasks whose runner's lease ended before `nowMs`, at most `limit` (the lease sweep's work). */
  expiredLeases(nowMs: number, limit: number): Promise<readonly string[]>;
  /**
   * An owner's tasks, newest first (legacy `tasks/list` only): those whose `owner` equals `owner`
   * (`undefined`: those without one) and, when `session` is given, whose `session` equals it.
   */
  list(owner: string | undefined, session: string | undefined, cursor: string | undefined, limit: number): Promise<TaskPage>;
  /** Every change and signal, from every instance; returns the unsubscribe. */
  watch(listener: (event: TaskEvent) => void): () => void;
  /** Stops watching and releases connections and timers. */
  close(): Promise<void>;
}
