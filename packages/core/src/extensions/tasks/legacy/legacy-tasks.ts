/**
 * The 2025-11-25 era's state over one task store: the outlets of the legacy tasks this instance
 * runs (where their asks, progress and status notifications go) and the four `tasks/*` methods.
 * Made on first use per store and closed with the Tasks extension.
 */
import { SessionAskSeam } from '../../../asks/session/session-asks.js';
import type { PipelineCall } from '../../../pipeline/call.js';
import { PROGRESS_TOKEN } from '../../../protocol/meta-keys.js';
import type { DerivedCallOptions } from '../../extension.js';
import type { TaskRecord, TaskStore } from '../task-store.js';
import { LegacyTaskMethods } from './legacy-task-methods.js';
import { LegacyTaskOutlets } from './legacy-task-outlets.js';
import { LegacyTaskSession } from './legacy-task-session.js';

/** The legacy era of one store. */
export class LegacyTasks {
  readonly methods: LegacyTaskMethods;
  private readonly outlets: LegacyTaskOutlets;

  constructor(private readonly store: TaskStore) {
    this.outlets = new LegacyTaskOutlets(store);
    this.methods = new LegacyTaskMethods(store, this.outlets);
  }

  /**
   * How the detached run of a stored legacy task differs from a plain call: its asks go to the
   * session as related-task requests, its progress keeps the call's token, its log notifications
   * go where the client listens. From now until the task ends its status changes are notified.
   * `undefined` for a call that is not on a legacy session.
   */
  derive(call: PipelineCall, record: TaskRecord, signal: AbortSignal): DerivedCallOptions | undefined {
    const seam = (call as { readonly asks?: unknown }).asks;
    if (!(seam instanceof SessionAskSeam)) return undefined;
    this.outlets.open(record.taskId, seam.session.outlet);
    const token = call.meta[PROGRESS_TOKEN];
    const session = new LegacyTaskSession(
      seam,
      record.taskId,
      this.store,
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

  close(): void {
    this.outlets.close();
  }
}

const byStore = new WeakMap<TaskStore, LegacyTasks>();

/** The legacy era over `store`, made on first use. */
export function legacyTasksOf(store: TaskStore): LegacyTasks {
  let legacy = byStore.get(store);
  if (!legacy) byStore.set(store, (legacy = new LegacyTasks(store)));
  return legacy;
}

/** Ends the legacy era over `store` (the Tasks extension closes). */
export function closeLegacyTasks(store: TaskStore): void {
  byStore.get(store)?.close();
  byStore.delete(store);
}
