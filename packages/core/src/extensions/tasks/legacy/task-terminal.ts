/**
 * Waiting for a task to end, as legacy `tasks/result` must (L§Result Retrieval: it blocks until the
 * task is terminal): the store's events, from every instance, plus a check when the task's
 * lifetime ends.
 */
import { TERMINAL_STATUSES, type TaskRecord, type TaskStore } from '../task-store.js';

/**
 * The task once terminal; `undefined` when it is unknown or expired; rejects with the signal's
 * reason when `signal` aborts first.
 */
export function untilTerminal(store: TaskStore, taskId: string, signal: AbortSignal): Promise<TaskRecord | undefined> {
  return new Promise<TaskRecord | undefined>((resolve, reject) => {
    let expiry: NodeJS.Timeout | undefined;
    const finish = (record: TaskRecord | undefined, error?: unknown): void => {
      stop();
      clearTimeout(expiry);
      signal.removeEventListener('abort', onAbort);
      if (error !== undefined) reject(error);
      else resolve(record);
    };
    const onAbort = (): void => finish(undefined, signal.reason ?? new Error('aborted'));
    // Subscribe before reading: a change between the read and the subscription is not missed.
    const stop = store.watch((event) => {
      if (event.type === 'changed' && event.record.taskId === taskId && TERMINAL_STATUSES.has(event.record.status)) finish(event.record);
    });
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    store.get(taskId).then(
      (record) => {
        if (!record || TERMINAL_STATUSES.has(record.status)) return finish(record);
        if (record.ttlMs === null) return;
        // A task may outlive its lifetime unfinished: look again once it is over (the store then forgets it).
        expiry = setTimeout(
          () =>
            void store.get(taskId).then(
              (again) => (!again || TERMINAL_STATUSES.has(again.status) ? finish(again) : undefined),
              (error: unknown) => finish(undefined, error),
            ),
          Math.max(0, record.createdAt + record.ttlMs - Date.now()) + 1,
        );
        expiry.unref();
      },
      (error: unknown) => finish(undefined, error),
    );
  });
}
