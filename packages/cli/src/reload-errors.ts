import { AsyncLocalStorage } from 'node:async_hooks';

/** The reload (its count) whose import started the async work running now; unset outside a reload's work. */
const reloads = new AsyncLocalStorage<number>();

/**
 * Imports a reloaded module inside the reload's async context: the timers, promises and sockets
 * its evaluation starts carry the reload count, so an error they throw later is known as its own.
 */
export function importAsReload<T>(version: number, load: () => Promise<T>): Promise<T> {
  return reloads.run(version, load);
}

/**
 * While `--watch` runs, an uncaught exception thrown by async work that a reloaded module started
 * (a timer or a socket of its top level, after its import finished) goes to `report` and the
 * process keeps serving: a developer's edit must not end the session of the host connected to it.
 * Any other uncaught exception keeps the transport's policy (its `uncaughtException` handlers:
 * answer what runs, exit 1), or Node's default when there is none. Unhandled rejections are
 * already logged without exiting by the transports, so they are left to them.
 *
 * Node lets one capture callback stand in for the `uncaughtException` event, which is why this
 * is a capture and not a listener: a listener cannot stop the transport's exiting one.
 *
 * @returns a function that gives uncaught exceptions back to the `uncaughtException` event, or
 *   `undefined` when Node refused the capture (`node:domain` was loaded, or another capture is set).
 */
export function keepServingOnReloadErrors(report: (version: number, error: unknown) => void): (() => void) | undefined {
  const capture = (error: unknown): void => {
    const version = reloads.getStore();
    if (version !== undefined) return report(version, error);
    if (process.listenerCount('uncaughtException') > 0) {
      process.emit('uncaughtException', error as Error);
      return;
    }
    // No handler: Node's default (print, exit 1), reached by throwing again without the capture.
    process.setUncaughtExceptionCaptureCallback(null);
    process.nextTick(() => {
      throw error;
    });
  };
  try {
    process.setUncaughtExceptionCaptureCallback(capture);
  } catch {
    return undefined;
  }
  return () => process.setUncaughtExceptionCaptureCallback(null);
}
