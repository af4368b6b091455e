import { Console } from 'node:console';
import type { Readable, Writable } from 'node:stream';
import {
  createServer,
  InvalidRequestError,
  ParseError,
  type DecorumServer,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type ServerOptions,
  type ServerTarget,
} from '@decorum/core';
import {
  Cancellation,
  encodeSafely,
  errorResponse,
  isNotificationShaped,
  isThenable,
  LineSplitter,
  McpEngine,
  parseJson,
  readEnvelope,
  shutdownErrors,
  type EngineResponse,
  type FlowChannel,
} from '@decorum/core/transport';
import { InFlight, keepTickShape } from '@decorum/transport-kit';
import { LineWriter } from './line-writer.js';
import { LISTEN_METHOD, listenTeardown, stdoutFlow } from './listen-flow.js';
import { encodeExactly } from './exact-integers.js';
import { handleProcessErrors } from './shutdown.js';
import { DEFAULT_MAX_CONCURRENT_REQUESTS, DEFAULT_MAX_PENDING_OUTPUT, InputGate } from './output-backpressure.js';
import { StdioEras } from './legacy-stdio.js';

/** Options of {@link serveStdio}. */
export interface ServeStdioOptions extends ServerOptions {
  /** Where requests come from (default `process.stdin`). */
  input?: Readable;
  /** Where responses go (default `process.stdout`); nothing else is ever written there. */
  output?: Writable;
  /** The longest accepted line in bytes (default 4 MiB); longer lines are refused with -32600. */
  maxLineBytes?: number;
  /**
   * Output backpressure: past this many bytes of answers waiting for stdout (a client that stopped
   * reading), stdin is no longer read until stdout drains (default 16 MiB).
   */
  maxPendingOutputBytes?: number;
  /**
   * At most this many requests run at once (default 128; `subscriptions/listen` not counted); later
   * lines wait, and past 1 MiB of waiting lines stdin is no longer read.
   */
  maxConcurrentRequests?: number;
  /** On stdin EOF or SIGTERM, how long in-flight requests may still finish (default 2000 ms). */
  shutdownGraceMs?: number;
  /** Route `console.log/info/debug` to stderr so stray prints cannot corrupt stdout (default true). */
  redirectConsole?: boolean;
  /** Handle SIGTERM/SIGINT by shutting down (default true when serving process.stdin). */
  handleSignals?: boolean;
  /**
   * The process-level error policy (default true when serving process.stdin): an unhandled
   * rejection is logged and serving goes on; an uncaught exception answers every running request
   * with -32603, then exits 1. See shutdown.ts.
   */
  handleProcessErrors?: boolean;
  /** Exit the process once shut down (default true when serving process.stdin). */
  exitOnClose?: boolean;
}

/** A running stdio server. */
export interface StdioServer {
  readonly server: DecorumServer;
  /** Resolves once the server has shut down (stdin ended or `close()` was called). */
  readonly closed: Promise<void>;
  /** Stops reading, lets in-flight requests finish within the grace period, then resolves. */
  close(): Promise<void>;
}

const DEFAULT_MAX_LINE = 4 * 1024 * 1024;

/**
 * One request's channel: its notifications go out until it is cancelled. A class rather than an
 * object with a `notify` closure: one object per request instead of three (the closure and its context).
 */
class StdioChannel implements FlowChannel {
  constructor(
    readonly cancellation: Cancellation,
    readonly flow: FlowChannel['flow'],
    private readonly write: (notification: JsonRpcNotification) => void,
  ) {}

  notify(notification: JsonRpcNotification): void {
    if (!this.cancellation.cancelled) this.write(notification);
  }
}

/**
 * Serves decorated classes (or a built server) over stdio: newline-delimited JSON-RPC on
 * stdin/stdout, logs on stderr. Requests run concurrently; `notifications/cancelled` aborts one.
 */
export function serveStdio(targets: readonly ServerTarget[] | DecorumServer, options: ServeStdioOptions = {}): StdioServer {
  const server = createServer(targets, options);
  // Node's own per-tick objects should not turn slow after an idle moment (see keepTickShape).
  keepTickShape();
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const usesProcess = input === process.stdin;
  const log = server.logger.child({ transport: 'stdio' });
  const inFlight = new InFlight<Cancellation>();
  const graceMs = options.shutdownGraceMs ?? 2000;
  let closing = false;
  /** Closed by a signal or `close()` (not stdin EOF): new requests are answered, not started. */
  let refusing = false;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));

  if (options.redirectConsole ?? true) {
    const toStderr = new Console(process.stderr);
    console.log = toStderr.log.bind(toStderr);
    console.info = toStderr.info.bind(toStderr);
    console.debug = toStderr.debug.bind(toStderr);
  }

  const flow = stdoutFlow(output);
  const lines = new LineWriter(output, options.maxPendingOutputBytes ?? DEFAULT_MAX_PENDING_OUTPUT, (backedUp) => gate.outputPressure(backedUp));
  // A value JSON cannot hold (a BigInt, a cycle): the request still gets an answer (-32603); such a
  // notification is dropped.
  const unserializable = (error: unknown) => log.error({ err: error }, 'a message could not be serialized to JSON');
  const write = (message: EngineResponse | JsonRpcNotification | JsonRpcRequest): void => {
    const line = encodeSafely(message, unserializable);
    if (line !== undefined) lines.write(line);
  };
  // A listen whose id is a bigint puts it in its notifications' `_meta` and its teardown: exact digits there too.
  const writeExactly = (message: EngineResponse | JsonRpcNotification): void => {
    const line = encodeExactly(message, unserializable);
    if (line !== undefined) lines.write(line);
  };
  // Lines wait for the end of their burst; a process that exits (or crashes) before it still
  // sends what it had answered, as it did when every message was written at once.
  const flushOnExit = () => lines.flushAll();
  if (output === process.stdout) process.on('exit', flushOnExit);

  const eras = new StdioEras(server, write);
  const dispatch = (line: string, screened: boolean): void => {
    let message: unknown;
    let envelope;
    try {
      message = parseJson(line, screened);
      envelope = readEnvelope(message);
    } catch (error) {
      // A notification is never answered, even a malformed one (`params: null`): it is logged.
      if (isNotificationShaped(message)) log.warn({ err: error }, 'ignored a malformed notification');
      else write(errorResponse(undefined, error));
      return;
    }
    if (envelope.kind === 'response') {
      // A legacy session's answers to its own requests; anything else is logged and dropped.
      if (eras.legacy) {
        // A malformed one (`"error": null`) is refused; the ask it names has already failed.
        const refused = eras.response(message as { id?: unknown });
        if (refused) write(errorResponse(undefined, refused));
        return;
      }
      log.warn('ignored a JSON-RPC response on stdin: clients must not send responses to a 2026-07-28 server');
      return;
    }
    if (envelope.kind === 'notification') {
      const cancelled = McpEngine.cancelledRequestId(envelope.notification);
      if (cancelled !== undefined) inFlight.get(cancelled)?.cancel();
      eras.notification(envelope.notification);
      return;
    }
    const { request } = envelope;
    if (refusing) {
      write(errorResponse(request.id, shutdownErrors.notStarted()));
      return;
    }
    if (inFlight.has(request.id)) {
      write(
        errorResponse(
          request.id,
          new InvalidRequestError(
            `Invalid Request: id ${typeof request.id === 'string' ? JSON.stringify(request.id) : String(request.id)} is already in flight; use a new id per request`,
          ),
        ),
      );
      return;
    }
    // A Cancellation makes no AbortSignal unless the handler reads ctx.signal.
    const cancellation = new Cancellation();
    inFlight.set(request.id, cancellation);
    let out = write;
    if (request.method !== LISTEN_METHOD) gate.started();
    else if (typeof request.id === 'bigint') out = writeExactly;
    let answer;
    try {
      answer = eras.handle(request, new StdioChannel(cancellation, flow, out));
    } catch (error) {
      engineFailed(request, cancellation, error);
      return;
    }
    if (isThenable(answer)) {
      settleLater(request, cancellation, answer);
      return;
    }
    // Answered at once (a plain tool): settled with the rest of its burst, below.
    if (ready.length === 0) queueMicrotask(settleReady);
    ready.push({ request, cancellation, response: answer });
  };

  /**
   * Requests answered at once, settled together once every line of their chunk has run: one
   * microtask per burst instead of a promise and a microtask per request, and the answers are
   * encoded one after another (measured faster than encoding each as its request ran). A
   * `notifications/cancelled` later in the same chunk still stops its request's answer.
   */
  let ready: Array<{ request: JsonRpcRequest; cancellation: Cancellation; response: EngineResponse | undefined }> = [];
  function settleReady(): void {
    // Settling may run held lines (the input gate), whose answers start the next batch.
    const batch = ready;
    ready = [];
    for (const { request, cancellation, response } of batch) settle(request, cancellation, response);
  }

  // Apart from dispatch, so that a request answered at once makes no closures (nor their context).
  function settleLater(request: JsonRpcRequest, cancellation: Cancellation, answer: PromiseLike<EngineResponse | undefined>): void {
    answer.then(
      (response) => settle(request, cancellation, response),
      (error: unknown) => engineFailed(request, cancellation, error),
    );
  }

  function engineFailed(request: JsonRpcRequest, cancellation: Cancellation, error: unknown): void {
    log.error({ err: error }, 'unexpected engine failure');
    settle(request, cancellation, undefined);
  }

  /** A request is done: answer it unless it was cancelled, and let a pending shutdown finish. */
  function settle(request: JsonRpcRequest, cancellation: Cancellation, response: EngineResponse | undefined): void {
    inFlight.delete(request.id);
    if (response && !cancellation.cancelled) {
      if (request.method !== LISTEN_METHOD) write(response);
      else {
        const out = typeof request.id === 'bigint' ? writeExactly : write;
        out(response);
        out(listenTeardown(request.id));
      }
    }
    if (request.method !== LISTEN_METHOD) gate.finished();
    if (closing && inFlight.size === 0 && !gate.holding) finish();
  }

  const gate = new InputGate(input, dispatch, options.maxConcurrentRequests ?? DEFAULT_MAX_CONCURRENT_REQUESTS);
  const splitter = new LineSplitter(
    options.maxLineBytes ?? DEFAULT_MAX_LINE,
    gate.offer,
    () =>
      write(
        errorResponse(
          undefined,
          new InvalidRequestError(`Invalid Request: message exceeds the ${options.maxLineBytes ?? DEFAULT_MAX_LINE}-byte line limit and was discarded`),
        ),
      ),
    () => write(errorResponse(undefined, new ParseError('Parse error: the line is not valid UTF-8'))),
  );

  let finished = false;
  let graceTimer: NodeJS.Timeout | undefined;
  function finish(): void {
    if (finished) return;
    finished = true;
    if (graceTimer) clearTimeout(graceTimer);
    // What still runs when the grace period ends gets an answer saying so, then is cancelled.
    answerInFlight(shutdownErrors.cutOff);
    for (const cancellation of inFlight.drain()) cancellation.cancel();
    removeProcessHandlers?.();
    eras.close();
    input.off('data', onData);
    if (usesProcess) {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
    }
    process.off('exit', flushOnExit);
    // Flush what is queued for stdout before reporting closed (and maybe exiting).
    lines.flushAll(() => {
      resolveClosed();
      if (options.exitOnClose ?? usesProcess) process.exit(0);
    });
  }

  function answerInFlight(error: () => Error): void {
    for (const [id, cancellation] of inFlight.entries()) if (!cancellation.cancelled) write(errorResponse(id, error()));
  }

  /** A signal or `close()`: requests that arrive from now on are answered, not started. */
  function stop(): Promise<void> {
    refusing = true;
    return beginClose();
  }

  function beginClose(): Promise<void> {
    if (!closing) {
      closing = true;
      splitter.end();
      // Listens are answered with their closing result rather than cut off by the grace timer.
      server.closeSubscriptions();
      if (inFlight.size === 0 && !gate.holding) finish();
      else graceTimer = setTimeout(finish, graceMs);
    }
    return closed;
  }

  const onData = (chunk: Buffer | string) => splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  const onSignal = (signal: NodeJS.Signals) => {
    // Said once, so an operator sees why new requests are refused and how long the rest may run.
    if (!refusing)
      log.info({ signal, running: inFlight.size, graceMs }, 'shutting down: new requests are refused; running ones may finish within the grace period');
    void stop();
  };
  const removeProcessHandlers =
    (options.handleProcessErrors ?? usesProcess)
      ? handleProcessErrors(log, (exit) => {
          answerInFlight(shutdownErrors.crashed);
          for (const cancellation of inFlight.drain()) cancellation.cancel();
          lines.flushAll(exit);
        })
      : undefined;
  input.on('data', onData);
  input.once('end', () => void beginClose());
  input.once('error', (error) => {
    log.error({ err: error }, 'stdin failed');
    void beginClose();
  });
  if (options.handleSignals ?? usesProcess) {
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
  }
  return { server, closed, close: stop };
}
