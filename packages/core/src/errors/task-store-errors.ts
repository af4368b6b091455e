import { InternalError } from './protocol-errors.js';

/**
 * -32603: the task store could not be read or written (Redis down, slow or refusing). A store
 * fails closed: the call that needed it fails, and no task id is issued that was not stored.
 */
export class TaskStoreUnavailableError extends InternalError {
  constructor(detail: string, options?: { readonly cause?: unknown }) {
    super(`Task store unavailable: ${detail}`);
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

/**
 * -32603: the memory task store holds `maxTasks` tasks, none expired or finished, so a new one is
 * refused (the call is not started) rather than letting memory grow without bound.
 */
export class TaskStoreFullError extends InternalError {
  constructor(readonly maxTasks: number) {
    super(`Task store full: it holds ${maxTasks} unfinished tasks (maxTasks); the call was not started`);
  }
}
