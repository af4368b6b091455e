/**
 * What differs between the protocol eras' tasks, behind one seam: when a call of a task tool
 * becomes a task, and how tasks look on the wire. The 2026-07-28 extension is `modern-task-era.ts`;
 * 2025-11-25 core tasks go in `legacy/` and register in `task-eras.ts`. A call whose revision
 * has no entry runs its task tool inline, as an ordinary call.
 */
import type { ClientCapabilities, JsonObject, Result } from '../../protocol/types.js';
import type { TaskPatch, TaskRecord } from './task-store.js';
import type { TaskSupport } from './task-option.js';

/** What a task-tool call looks like to its era's rules. */
export interface TaskCallView {
  readonly params: Readonly<JsonObject>;
  readonly clientCapabilities: ClientCapabilities;
}

/** One era's tasks. */
export interface TaskEra {
  /** The records' `era` (`modern`, or the legacy revision). */
  readonly name: string;
  /** Whether this call runs as a task; throws when it cannot be served at all (modern: -32021 for `required`). */
  runsAsTask(call: TaskCallView, support: TaskSupport): boolean;
  /** The creating `tools/call`'s answer. */
  created(record: TaskRecord): Result;
  /** `tasks/get`'s answer. */
  detailed(record: TaskRecord): Result;
  /** How the tool's result ends the task (modern: `isError` is still `completed`). */
  settled(result: Result): TaskPatch;
}
