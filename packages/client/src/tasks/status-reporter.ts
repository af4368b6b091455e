import { statusOf, type Task, type TaskDetail } from './task.js';

/** Calls `onStatus` once per change of a task's status or status message (polls that see no change stay silent). */
export class StatusReporter {
  private last: Task | undefined;

  constructor(private readonly onStatus: ((task: Task) => void) | undefined) {}

  /** The task as the server last described it. */
  get current(): Task | undefined {
    return this.last;
  }

  report(task: TaskDetail): void {
    const last = this.last;
    if (last && last.status === task.status && last.statusMessage === task.statusMessage) return;
    this.last = statusOf(task);
    this.onStatus?.(this.last);
  }
}
