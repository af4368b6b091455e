/** The Tasks extension's server-wide settings (`tasks({ … })`), with their defaults. */
import type { TaskStore } from './task-store.js';

/** Options of the Tasks extension. */
export interface TasksOptions {
  /** Where tasks live (default: a `MemoryTaskStore`). */
  readonly store?: TaskStore;
  /** A task tool's TTL when it gives none, in ms (default 3,600,000: 1 h). */
  readonly defaultTtlMs?: number;
  /** The longest TTL a tool may give, in ms (default 86,400,000: 24 h; `null`: no bound). */
  readonly maxTtlMs?: number | null;
  /** How often clients should poll, in ms (default 1,000). */
  readonly pollIntervalMs?: number;
  /** `ctx.progress` writes the task's `statusMessage` at most this often, in ms (default 1,000). */
  readonly statusIntervalMs?: number;
  /**
   * How long the lease of a running task lasts unless renewed, in ms (default 15,000; renewed
   * every third of it): a task whose instance stopped is failed once its lease lapsed (docs/tasks.md, "Several instances").
   */
  readonly leaseMs?: number;
}

/** The settings in force, built once. */
export interface TaskSettings {
  readonly defaultTtlMs: number;
  readonly maxTtlMs: number | null;
  readonly pollIntervalMs: number;
  readonly statusIntervalMs: number;
  readonly leaseMs: number;
}

export function taskSettings(options: TasksOptions = {}): TaskSettings {
  return {
    defaultTtlMs: options.defaultTtlMs ?? 3_600_000,
    maxTtlMs: options.maxTtlMs === undefined ? 86_400_000 : options.maxTtlMs,
    pollIntervalMs: options.pollIntervalMs ?? 1_000,
    statusIntervalMs: options.statusIntervalMs ?? 1_000,
    leaseMs: options.leaseMs ?? 15_000,
  };
}
