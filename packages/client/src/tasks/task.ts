import type { JsonObject, JsonRpcErrorObject } from '@decorum/core';
import { InvalidResultError } from '../errors.js';

/** Where a task is in its life: running, waiting for the client's input, or ended one of three ways. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

const STATUSES: ReadonlySet<string> = new Set<TaskStatus>(['working', 'input_required', 'completed', 'failed', 'cancelled']);
const TERMINAL: ReadonlySet<TaskStatus> = new Set<TaskStatus>(['completed', 'failed', 'cancelled']);

/**
 * A task as the server last described it, the same in both eras (2026-07-28's `ttlMs` and
 * `pollIntervalMs`; 2025-11-25's `ttl` and `pollInterval` are read into them). `onStatus` gets one
 * each time the status or its message changes.
 */
export interface Task {
  readonly taskId: string;
  readonly status: TaskStatus;
  /** What the server says it is doing (a handler's progress message, a failure's reason). */
  readonly statusMessage?: string;
  readonly createdAt?: string;
  readonly lastUpdatedAt?: string;
  /** How long the server keeps the task from its creation (null: no limit). */
  readonly ttlMs?: number | null;
  /** How often the server asks to be polled. */
  readonly pollIntervalMs?: number;
}

/** A task with what its status carries: asks (`input_required`), the result (`completed`), the error (`failed`). */
export interface TaskDetail extends Task {
  readonly inputRequests?: JsonObject;
  readonly result?: JsonObject;
  readonly error?: JsonRpcErrorObject;
}

/** Whether the task has ended (its status never changes again). */
export const isTerminal = (task: Task): boolean => TERMINAL.has(task.status);

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** Reads a task object of either era (a CreateTaskResult, a `tasks/get` answer, a legacy `{ task }`'s task). */
export function readTask(value: unknown, method: string): TaskDetail {
  const raw = (typeof value === 'object' && value !== null ? value : {}) as JsonObject;
  if (typeof raw.taskId !== 'string' || raw.taskId === '') throw new InvalidResultError(`${method} answered a task without a taskId`);
  if (typeof raw.status !== 'string' || !STATUSES.has(raw.status)) {
    throw new InvalidResultError(`${method} answered task ${raw.taskId} with status ${JSON.stringify(raw.status)}, which this client does not know`);
  }
  const ttl = raw.ttlMs !== undefined ? raw.ttlMs : raw.ttl;
  const task: { -readonly [K in keyof TaskDetail]: TaskDetail[K] } = { taskId: raw.taskId, status: raw.status as TaskStatus };
  if (text(raw.statusMessage) !== undefined) task.statusMessage = raw.statusMessage as string;
  if (text(raw.createdAt) !== undefined) task.createdAt = raw.createdAt as string;
  if (text(raw.lastUpdatedAt) !== undefined) task.lastUpdatedAt = raw.lastUpdatedAt as string;
  if (ttl === null || count(ttl) !== undefined) task.ttlMs = ttl as number | null;
  const poll = count(raw.pollIntervalMs) ?? count(raw.pollInterval);
  if (poll !== undefined) task.pollIntervalMs = poll;
  if (typeof raw.inputRequests === 'object' && raw.inputRequests !== null) task.inputRequests = raw.inputRequests as JsonObject;
  if (typeof raw.result === 'object' && raw.result !== null) task.result = raw.result as JsonObject;
  if (typeof raw.error === 'object' && raw.error !== null) task.error = raw.error as unknown as JsonRpcErrorObject;
  return task;
}

/** The task without its payload (what `onStatus` is given). */
export function statusOf(task: TaskDetail): Task {
  const { inputRequests: _asks, result: _result, error: _error, ...status } = task;
  return status;
}
