import type { Task } from './task.js';

/** How `callTool` runs a tool as a task (both eras). */
export interface TaskCallOptions {
  /** Called with the task each time its status or status message changes (the first call: it was created). */
  onStatus?: (task: Task) => void;
  /**
   * Whether to run the call as a task. 2026-07-28: `false` leaves the Tasks extension out of this
   * request's capabilities (the server then runs the tool at once, or refuses a task-only tool).
   * 2025-11-25: tools that say `execution.taskSupport: "required"` always run as tasks, `"optional"`
   * ones only when this is `true` or `{ ttlMs }` (the time-to-live asked for; the server may change it).
   */
  task?: boolean | { ttlMs?: number };
  /** How often to ask for the task's status (default: the interval the server asks for, else 1 s). */
  pollIntervalMs?: number;
}

/** The default interval between two `tasks/get` when the server suggests none. */
export const DEFAULT_POLL_INTERVAL_MS = 1000;
