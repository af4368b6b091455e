import type { Logger } from '@decorum/core';

/**
 * The process-level error policy of a server that owns its process (mcp-serve, `serveStdio` on
 * process.stdin):
 * - an unhandled promise rejection (a handler's stray promise, typically after it returned) is
 *   logged, and the server keeps serving: one careless handler must not end every client's session;
 * - an uncaught exception leaves the process in an unknown state: it is logged, `onFatal` answers
 *   what is in flight, and the process exits with status 1.
 *
 * @returns a function that removes the handlers again.
 */
export function handleProcessErrors(log: Logger, onFatal: (exit: () => void) => void): () => void {
  const onRejection = (reason: unknown) => log.error({ err: reason }, 'unhandled promise rejection; the server keeps serving');
  let failing = false;
  const onException = (error: Error) => {
    log.fatal({ err: error }, 'uncaught exception: answering in-flight requests, then exiting with status 1');
    if (failing) return;
    failing = true;
    onFatal(() => process.exit(1));
  };
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}
