import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '@decorum/core';
import { LineSplitter } from '@decorum/core/transport';
import { ConnectionClosedError, MessageTooLargeError, ProtocolViolationError, RequestCancelledError } from '../errors.js';
import { cancelledNotification } from './cancellation.js';
import { answerServerRequest, readIncoming } from './incoming.js';
import { PendingRequests } from './pending-requests.js';
import type { ClientTransport, EraInfo, Exchange, TransportEvents } from './transport.js';

/** A server to spawn and speak to over stdin/stdout. */
export interface StdioTarget {
  command: string;
  args?: readonly string[];
  /** Added to the client's own environment. */
  env?: Record<string, string>;
  cwd?: string;
  /** Where the server's stderr goes: passed on to this process's stderr (default), a function, or nowhere. */
  stderr?: 'inherit' | 'ignore' | ((text: string) => void);
  /** Respawn the server when it exits unexpectedly, up to `retries` times (default: no restart). */
  restart?: { retries: number; delayMs?: number };
}

/** Transport options shared by the byte-stream transports. */
export interface StreamLimits {
  /** The largest message accepted from the server (default 16 MiB). */
  maxMessageBytes?: number;
}

/** The default largest message accepted from a server: 16 MiB. */
export const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
const STDERR_TAIL = 2000;
const GRACE_MS = 2000;

/**
 * stdio (§4): spawns the server, writes one JSON-RPC message per line to its stdin, reads lines
 * from its stdout, passes its stderr on, and notices when it exits (optionally respawning it).
 * A line that is not JSON-RPC, or an answer to an id that is not in flight, is a protocol
 * violation: every request in flight fails with it and the process is stopped.
 */
export class StdioTransport implements ClientTransport {
  readonly kind = 'stdio';
  private child: ChildProcessWithoutNullStreams | undefined;
  private readonly pending = new PendingRequests();
  private events!: TransportEvents;
  private closing = false;
  private restarts = 0;
  private stderrTail = '';
  private violation: Error | undefined;
  private ready: Promise<void> = Promise.resolve();
  private readonly maxBytes: number;

  constructor(
    private readonly target: StdioTarget,
    limits: StreamLimits = {},
  ) {
    this.maxBytes = limits.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  }

  /** The running server's process id (for tests and supervisors). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Spawns or connects; see {@link ClientTransport.start}. */
  start(events: TransportEvents): Promise<void> {
    this.events = events;
    this.ready = this.spawn();
    return this.ready;
  }

  private spawn(): Promise<void> {
    const { command, args = [], env, cwd } = this.target;
    const child = spawn(command, [...args], { cwd, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child = child;
    this.violation = undefined;
    // The server side's own framing (a line over the limit is dropped as it streams in).
    const reader = new LineSplitter(
      this.maxBytes,
      (line) => this.onLine(line),
      () => this.pending.rejectAll(new MessageTooLargeError(this.maxBytes)),
    );
    child.stdout.on('data', (chunk: Buffer) => reader.push(chunk));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => this.onStderr(text));
    // A write to a process that just died fails with EPIPE; its exit is what reports it.
    child.stdin.on('error', () => {});
    child.on('exit', (code, signal) => this.onExit(child, code, signal));
    return new Promise((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (error) => reject(new ConnectionClosedError(`Could not start the server (${command}): ${error.message}`, { cause: error })));
    });
  }

  async request(request: JsonRpcRequest, exchange: Exchange): Promise<JsonRpcResponse> {
    await this.ready;
    const child = this.live();
    const answered = this.pending.add(request.id, exchange);
    const signal = exchange.signal;
    if (signal) {
      if (signal.aborted) this.cancel(request, signal.reason);
      else signal.addEventListener('abort', () => this.cancel(request, signal.reason), { once: true });
    }
    this.write(child, request);
    return answered;
  }

  async notify(notification: JsonRpcNotification): Promise<void> {
    await this.ready;
    this.write(this.live(), notification);
  }

  /** See {@link ClientTransport.setEra}. */
  setEra(_era: EraInfo): void {}

  principal(): string {
    return '';
  }

  /** See {@link ClientTransport.close}. */
  async close(): Promise<void> {
    this.closing = true;
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    // EOF on stdin is the graceful shutdown (S-08); then SIGTERM, then SIGKILL.
    child.stdin.end();
    const escalate = async (signal: NodeJS.Signals) => {
      const timer = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), GRACE_MS).unref());
      if ((await Promise.race([exited, timer])) === 'late') child.kill(signal);
    };
    await escalate('SIGTERM');
    await escalate('SIGKILL');
    await exited;
  }

  private live(): ChildProcessWithoutNullStreams {
    const child = this.child;
    if (!child || this.closing || child.exitCode !== null || child.signalCode !== null) {
      throw new ConnectionClosedError(this.closing ? 'The client was closed' : `The server process is not running${this.tail()}`);
    }
    return child;
  }

  private write(child: ChildProcessWithoutNullStreams, message: JsonRpcRequest | JsonRpcNotification | JsonRpcResponse): void {
    child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  private cancel(request: JsonRpcRequest, reason: unknown): void {
    this.pending.cancel(request.id, reason instanceof Error ? reason : new RequestCancelledError(request.method, reason));
    const child = this.child;
    if (child && child.exitCode === null) this.write(child, cancelledNotification(request, reason));
  }

  private onLine(line: string): void {
    if (this.violation) return;
    try {
      const incoming = readIncoming(line);
      if (incoming.kind === 'response') {
        if (!this.pending.settle(incoming.message)) {
          throw new ProtocolViolationError(`The server answered request id ${JSON.stringify(incoming.message.id ?? null)}, which is not in flight`);
        }
      } else if (incoming.kind === 'request') {
        const child = this.child!;
        void answerServerRequest(this.events, incoming.message).then((response) => child.exitCode === null && this.write(child, response));
      } else {
        const exchange = this.pending.route(incoming.message);
        if (exchange) exchange.onNotification?.(incoming.message);
        else this.events.onNotification(incoming.message);
      }
    } catch (error) {
      // The stream can no longer be trusted: fail what is in flight and stop the process.
      this.violation = error as Error;
      this.pending.rejectAll(error as Error);
      this.child?.kill('SIGTERM');
    }
  }

  private onStderr(text: string): void {
    this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL);
    const sink = this.target.stderr ?? 'inherit';
    if (sink === 'inherit') process.stderr.write(text);
    else if (typeof sink === 'function') sink(text);
  }

  private tail(): string {
    const last = this.stderrTail.trim().split('\n').slice(-3).join(' | ');
    return last ? `; its stderr ended with: ${last.slice(-400)}` : '';
  }

  private onExit(child: ChildProcessWithoutNullStreams, code: number | null, signal: NodeJS.Signals | null): void {
    if (child !== this.child) return;
    const error = this.closing
      ? undefined
      : (this.violation ?? new ConnectionClosedError(`The server process exited (${signal ? `signal ${signal}` : `code ${code}`})${this.tail()}`));
    this.pending.rejectAll(error ?? new ConnectionClosedError('The client was closed'));
    const restart = this.target.restart;
    const restarting = !this.closing && restart !== undefined && this.restarts < restart.retries;
    this.events.onClose(error, restarting);
    if (restarting) {
      this.restarts++;
      const delay = restart!.delayMs ?? 100;
      this.ready = new Promise<void>((resolve) => setTimeout(resolve, delay)).then(() => this.spawn());
      this.ready.catch((e: Error) => this.events.onClose(e, false));
    }
  }
}
