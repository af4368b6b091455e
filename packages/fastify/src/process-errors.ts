import { shutdownErrors } from '@decorum/core/transport';
import type { FastifyInstance } from 'fastify';
import { answerRunningRequests } from './running-requests.js';

/** How long answers written after a crash may take to leave before the process exits. */
const CRASH_FLUSH_MS = 200;

/**
 * The process-level error policy of `serveHttp` (and so `mcp-serve --http`), the same as stdio's:
 * an unhandled promise rejection — a handler's stray promise, typically after it returned — is
 * logged and serving goes on; an uncaught exception leaves the process in an unknown state, so
 * every running MCP request is answered with -32603 (JSON, or the last event of its stream),
 * connections are closed, and the process exits with status 1.
 *
 * @returns a function that removes the handlers.
 */
export function exitOnUncaughtException(app: FastifyInstance): () => void {
  const onRejection = (reason: unknown): void => app.log.error({ err: reason }, 'unhandled promise rejection; the server keeps serving');
  let crashed = false;
  const onException = (error: Error): void => {
    app.log.fatal({ err: error }, 'uncaught exception: answering running requests, then exiting with status 1');
    if (crashed) return;
    crashed = true;
    answerRunningRequests(app.server, shutdownErrors.crashed);
    setTimeout(() => {
      app.server.closeAllConnections();
      process.exit(1);
    }, CRASH_FLUSH_MS);
  };
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}
