import { Console } from 'node:console';
import type { Readable, Writable } from 'node:stream';
import {
  createServer,
  InvalidRequestError,
  ParseError,
  type DecorumServer,
  type JsonRpcNotification,
  type Logger,
  type JsonRpcRequest,
  type ServerOptions,
  type ServerTarget,
} from '@decorum/core';
import {
  Cancellation,
  encodeMessage,
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
  type TextEncoding,
} from '@decorum/core/transport';
import { InFlight, keepTickShape } from '@decorum/transport-kit';
import { LineWriter } from './line-writer.js';
import { LISTEN_METHOD, listenTeardown, stdoutFlow } from './listen-flow.js';
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

/** The messages of a listen whose id is a bigint carry it in `_meta` and in its teardown: exact digits there too. */
const EXACT_INTEGERS: TextEncoding = { exactIntegers: true };

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
  const transport = new StdioTransport(server, options);
  return { server, closed: transport.closed, close: transport.stop };
}

/** A request answered at once, waiting for the end of its burst to be settled. */
interface ReadyAnswer {
  request: JsonRpcRequest;
  cancellation: Cancellation;
  response: EngineResponse | undefined;
}

/**
 * One server at work on one input and output: reads lines, runs them, writes the answers, and shuts
 * down on stdin's end, a signal or `close()`. Its fields are what the transport keeps between lines.
 */
class StdioTransport {
  private readonly input: Readable;
  private readonly usesProcess: boolean;
  private readonly log: Logger;
  private readonly inFlight = new InFlight<Cancellation>();
  private readonly graceMs: number;
  private readonly flow: FlowChannel['flow'];
  private readonly lines: LineWriter;
  private readonly eras: StdioEras;
  private readonly gate: InputGate;
  private readonly splitter: LineSplitter;
  private readonly removeProcessHandlers: (() => void) | undefined;
  /** Stdin ended, or a signal or `close()`: no more lines are read. */
  private closing = false;
  /** Closed by a signal or `close()` (not stdin EOF): new requests are answered, not started. */
  private refusing = false;
  private finished = false;
  private graceTimer: NodeJS.Timeout | undefined;
  /** The server's extensions closing, from the start of shutdown. */
  private extensionsClosed: Promise<void> | undefined;
  /** Requests answered at once, settled together at the end of their burst (see {@link settleReady}). */
  private ready: ReadyAnswer[] = [];
  private resolveClosed!: () => void;
  /** Resolves once the server has shut down. */
  readonly closed = new Promise<void>((resolve) => (this.resolveClosed = resolve));

  constructor(
    private readonly server: DecorumServer,
    private readonly options: ServeStdioOptions,
  ) {
    const input = (this.input = options.input ?? process.stdin);
    const output = options.output ?? process.stdout;
    this.usesProcess = input === process.stdin;
    this.log = server.logger.child({ transport: 'stdio' });
    this.graceMs = options.shutdownGraceMs ?? 2000;

    if (options.redirectConsole ?? true) {
      const toStderr = new Console(process.stderr);
      console.log = toStderr.log.bind(toStderr);
      console.info = toStderr.info.bind(toStderr);
      console.debug = toStderr.debug.bind(toStderr);
    }

    this.flow = stdoutFlow(output);
    this.lines = new LineWriter(output, options.maxPendingOutputBytes ?? DEFAULT_MAX_PENDING_OUTPUT, (backedUp) => this.gate.outputPressure(backedUp));
    // Lines wait for the end of their burst; a process that exits (or crashes) before it still
    // sends what it had answered, as it did when every message was written at once.
    if (output === process.stdout) process.on('exit', this.flushOnExit);

    this.eras = new StdioEras(server, this.write);
    this.gate = new InputGate(input, this.dispatch, options.maxConcurrentRequests ?? DEFAULT_MAX_CONCURRENT_REQUESTS);
    const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE;
    this.splitter = new LineSplitter(
      maxLineBytes,
      this.gate.offer,
      () =>
        this.write(errorResponse(undefined, new InvalidRequestError(`Invalid Request: message exceeds the ${maxLineBytes}-byte line limit and was discarded`))),
      () => this.write(errorResponse(undefined, new ParseError('Parse error: the line is not valid UTF-8'))),
    );

    this.removeProcessHandlers =
      (options.handleProcessErrors ?? this.usesProcess)
        ? handleProcessErrors(this.log, (exit) => {
            this.answerInFlight(shutdownErrors.crashed);
            for (const cancellation of this.inFlight.drain()) cancellation.cancel();
            this.lines.flushAll(exit);
          })
        : undefined;
    input.on('data', this.onData);
    input.once('end', () => void this.beginClose());
    input.once('error', (error) => {
      this.log.error({ err: error }, 'stdin failed');
      void this.beginClose();
    });
    if (options.handleSignals ?? this.usesProcess) {
      process.once('SIGTERM', this.onSignal);
      process.once('SIGINT', this.onSignal);
    }
  }

  // A value JSON cannot hold (a BigInt, a cycle): the request still gets an answer (-32603); such a
  // notification is dropped.
  private readonly unserializable = (error: unknown): void => this.log.error({ err: error }, 'a message could not be serialized to JSON');

  private readonly write = (message: EngineResponse | JsonRpcNotification | JsonRpcRequest): void => {
    const line = encodeMessage(message, undefined, this.unserializable);
    if (line !== undefined) this.lines.write(line);
  };

  // A listen whose id is a bigint puts it in its notifications' `_meta` and its teardown: exact digits there too.
  private readonly writeExactly = (message: EngineResponse | JsonRpcNotification): void => {
    const line = encodeMessage(message, EXACT_INTEGERS, this.unserializable);
    if (line !== undefined) this.lines.write(line);
  };

  private readonly flushOnExit = (): void => this.lines.flushAll();

  private readonly dispatch = (line: string, screened: boolean): void => {
    let message: unknown;
    let envelope;
    try {
      message = parseJson(line, screened);
      envelope = readEnvelope(message);
    } catch (error) {
      // A notification is never answered, even a malformed one (`params: null`): it is logged.
      if (isNotificationShaped(message)) this.log.warn({ err: error }, 'ignored a malformed notification');
      else this.write(errorResponse(undefined, error));
      return;
    }
    if (envelope.kind === 'response') {
      // A legacy session's answers to its own requests; anything else is logged and dropped.
      if (this.eras.legacy) {
        // A malformed one (`"error": null`) is refused; the ask it names has already failed.
        const refused = this.eras.response(message as { id?: unknown });
        if (refused) this.write(errorResponse(undefined, refused));
        return;
      }
      this.log.warn('ignored a JSON-RPC response on stdin: clients must not send responses to a 2026-07-28 server');
      return;
    }
    if (envelope.kind === 'notification') {
      const cancelled = McpEngine.cancelledRequestId(envelope.notification);
      if (cancelled !== undefined) this.inFlight.get(cancelled)?.cancel();
      this.eras.notification(envelope.notification);
      return;
    }
    const { request } = envelope;
    if (this.refusing) {
      this.write(errorResponse(request.id, shutdownErrors.notStarted()));
      return;
    }
    if (this.inFlight.has(request.id)) {
      this.write(
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
    this.inFlight.set(request.id, cancellation);
    let out = this.write;
    if (request.method !== LISTEN_METHOD) this.gate.started();
    else if (typeof request.id === 'bigint') out = this.writeExactly;
    let answer;
    try {
      answer = this.eras.handle(request, new StdioChannel(cancellation, this.flow, out));
    } catch (error) {
      this.engineFailed(request, cancellation, error);
      return;
    }
    if (isThenable(answer)) {
      this.settleLater(request, cancellation, answer);
      return;
    }
    // Answered at once (a plain tool): settled with the rest of its burst, below.
    if (this.ready.length === 0) queueMicrotask(this.settleReady);
    this.ready.push({ request, cancellation, response: answer });
  };

  /**
   * Requests answered at once, settled together once every line of their chunk has run: one
   * microtask per burst instead of a promise and a microtask per request, and the answers are
   * encoded one after another. A `notifications/cancelled` later in the same chunk still stops
   * its request's answer.
   */
  private readonly settleReady = (): void => {
    // Settling may run held lines (the input gate), whose answers start the next batch.
    const batch = this.ready;
    this.ready = [];
    for (const { request, cancellation, response } of batch) this.settle(request, cancellation, response);
  };

  // Apart from dispatch, so that a request answered at once makes no closures (nor their context).
  private settleLater(request: JsonRpcRequest, cancellation: Cancellation, answer: PromiseLike<EngineResponse | undefined>): void {
    answer.then(
      (response) => this.settle(request, cancellation, response),
      (error: unknown) => this.engineFailed(request, cancellation, error),
    );
  }

  private engineFailed(request: JsonRpcRequest, cancellation: Cancellation, error: unknown): void {
    this.log.error({ err: error }, 'unexpected engine failure');
    this.settle(request, cancellation, undefined);
  }

  /** A request is done: answer it unless it was cancelled, and let a pending shutdown finish. */
  private settle(request: JsonRpcRequest, cancellation: Cancellation, response: EngineResponse | undefined): void {
    this.inFlight.delete(request.id);
    if (response && !cancellation.cancelled) {
      if (request.method !== LISTEN_METHOD) this.write(response);
      else {
        const out = typeof request.id === 'bigint' ? this.writeExactly : this.write;
        out(response);
        out(listenTeardown(request.id));
      }
    }
    if (request.method !== LISTEN_METHOD) this.gate.finished();
    if (this.closing && this.inFlight.size === 0 && !this.gate.holding) this.finish();
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    if (this.graceTimer) clearTimeout(this.graceTimer);
    // What still runs when the grace period ends gets an answer saying so, then is cancelled.
    this.answerInFlight(shutdownErrors.cutOff);
    // Lines held behind the input gate never started: each request among them is answered as not started.
    this.refusing = true;
    for (const line of this.gate.takeHeld()) this.dispatch(line, false);
    for (const cancellation of this.inFlight.drain()) cancellation.cancel();
    this.removeProcessHandlers?.();
    this.eras.close();
    this.input.off('data', this.onData);
    if (this.usesProcess) {
      process.off('SIGTERM', this.onSignal);
      process.off('SIGINT', this.onSignal);
    }
    process.off('exit', this.flushOnExit);
    // Flush what is queued for stdout before reporting closed (and maybe exiting).
    this.lines.flushAll(() => {
      // Closed once the extensions are too (Tasks records why its running tasks ended).
      void (this.extensionsClosed ?? Promise.resolve()).then(() => {
        this.resolveClosed();
        if (this.options.exitOnClose ?? this.usesProcess) process.exit(0);
      });
    });
  }

  private answerInFlight(error: () => Error): void {
    for (const [id, cancellation] of this.inFlight.entries()) if (!cancellation.cancelled) this.write(errorResponse(id, error()));
  }

  /** A signal or `close()`: requests that arrive from now on are answered, not started. */
  readonly stop = (): Promise<void> => {
    this.refusing = true;
    return this.beginClose();
  };

  private beginClose(): Promise<void> {
    if (!this.closing) {
      this.closing = true;
      this.splitter.end();
      // Listens are answered with their closing result rather than cut off by the grace timer.
      this.extensionsClosed = this.server.closeSubscriptions();
      if (this.inFlight.size === 0 && !this.gate.holding) this.finish();
      else this.graceTimer = setTimeout(() => this.finish(), this.graceMs);
    }
    return this.closed;
  }

  private readonly onData = (chunk: Buffer | string): void => this.splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);

  private readonly onSignal = (signal: NodeJS.Signals): void => {
    // Said once, so an operator sees why new requests are refused and how long the rest may run.
    if (!this.refusing)
      this.log.info(
        { signal, running: this.inFlight.size, graceMs: this.graceMs },
        'shutting down: new requests are refused; running ones may finish within the grace period',
      );
    void this.stop();
  };
}
