import type { DecorumServer, ServerTarget } from '@decorum/core';
import { shutdownErrors } from '@decorum/core/transport';
import { keepTickShape, raiseMallocTrimThreshold } from '@decorum/transport-kit';
import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import { createMcpApp, type McpAppOptions } from './app.js';
import { DEFAULT_PATH } from './options.js';
import { exitOnUncaughtException } from './process-errors.js';
import { answerRunningRequests } from './running-requests.js';

/** How long the answers to cut-off requests may take to leave before their connections are closed. */
const ANSWER_FLUSH_MS = 100;

/** How long a signalled shutdown may outlast its grace period (closing hooks, a stuck connection) before the process exits 1. */
const SHUTDOWN_BOUND_MS = 5000;

/** What close-with-grace would also handle, left alone: only SIGTERM and SIGINT shut down (errors are process-errors.ts's). */
const NOT_SHUTDOWN_EVENTS: closeWithGrace.AllEvents[] = [
  'SIGHUP',
  'SIGQUIT',
  'SIGILL',
  'SIGTRAP',
  'SIGABRT',
  'SIGBUS',
  'SIGFPE',
  'SIGSEGV',
  'SIGUSR2',
  'uncaughtException',
  'unhandledRejection',
  'beforeExit',
];

/** Options of {@link serveHttp}. */
export interface ServeHttpOptions extends McpAppOptions {
  /** Interface to bind (default `127.0.0.1`: a local server is not reachable from the network). */
  host?: string;
  /** Port (default 3000; 0 picks a free one — read it from `url`). */
  port?: number;
  /** On shutdown, how long in-flight requests may still finish before their connections are cut (default 5000 ms). */
  shutdownGraceMs?: number;
  /**
   * Shut down on SIGTERM/SIGINT, then exit: 0 once closed, 1 on a second signal or when closing
   * outlasts the grace period by 5 s (default true).
   */
  handleSignals?: boolean;
  /**
   * The process-level error policy (default: as `handleSignals`): unhandled rejections are logged
   * and serving goes on; an uncaught exception answers running requests with -32603, then exits 1.
   */
  handleProcessErrors?: boolean;
}

/** A listening HTTP server. */
export interface HttpServer {
  readonly app: FastifyInstance;
  /** The endpoint's URL, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string;
  /** Resolves once the server has shut down. */
  readonly closed: Promise<void>;
  /** Stops accepting, lets in-flight requests finish within the grace period, then closes what is left. */
  close(): Promise<void>;
}

/**
 * Serves decorated classes (or a built server) over Streamable HTTP until closed or signalled. It owns
 * the process, so it also tunes it for serving long: Node's per-tick objects keep their shape after an
 * idle moment (tick-shape.ts) and freed buffer memory stays with the process (malloc-trim.ts).
 */
export async function serveHttp(targets: readonly ServerTarget[] | DecorumServer, options: ServeHttpOptions = {}): Promise<HttpServer> {
  const { host = '127.0.0.1', port = 3000, shutdownGraceMs = 5000, handleSignals = true, handleProcessErrors = handleSignals, ...appOptions } = options;
  keepTickShape();
  raiseMallocTrimThreshold();
  const app = await createMcpApp(targets, appOptions);
  const removeProcessHandlers = handleProcessErrors ? exitOnUncaughtException(app) : undefined;
  await app.listen({ host, port });
  const address = app.server.address();
  const bound = typeof address === 'object' && address !== null ? address : { address: host, port, family: 'IPv4' };
  const hostPart = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
  const url = `http://${hostPart}:${bound.port}${options.prefix ?? ''}${options.path ?? DEFAULT_PATH}`;

  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      signals?.uninstall();
      // app.close() stops accepting and waits for in-flight requests; past the grace period they are
      // answered and cancelled (ctx.signal aborts), and their connections cut, which lets close() finish.
      // Requests still running then get -32603 "server shutting down" (their stream ends with it)
      // before the connections go.
      let cut: NodeJS.Timeout | undefined;
      const timer = setTimeout(() => {
        app.log.warn({ graceMs: shutdownGraceMs }, 'shutdown grace period over: answering running requests, then closing the remaining connections');
        answerRunningRequests(app.server, shutdownErrors.cutOff);
        cut = setTimeout(() => app.server.closeAllConnections(), ANSWER_FLUSH_MS);
      }, shutdownGraceMs);
      try {
        await app.close();
      } finally {
        clearTimeout(timer);
        clearTimeout(cut);
        removeProcessHandlers?.();
        resolveClosed();
      }
    })();
    return closing;
  };
  // The first signal closes gracefully, a second exits at once, and the whole shutdown is bounded.
  const signals = handleSignals
    ? closeWithGrace({ delay: shutdownGraceMs + ANSWER_FLUSH_MS + SHUTDOWN_BOUND_MS, logger: app.log, skip: NOT_SHUTDOWN_EVENTS }, async ({ signal }) => {
        app.log.info({ signal }, 'shutting down');
        await close();
      })
    : undefined;
  return { app, url, closed, close };
}
