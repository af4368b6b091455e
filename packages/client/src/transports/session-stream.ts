import { CrossOriginRedirectError, ForbiddenError, McpClientError, UnauthorizedError } from '../errors.js';
import { readEventStream, type StreamCursor } from './body-reader.js';

/** The wait before reconnecting when the server sent no `retry` field, in ms. */
export const DEFAULT_RETRY_MS = 1000;
/** The shortest wait before reconnecting: a server's lower `retry` (even 0) is raised to it, so that no server can make a client spin. */
export const RETRY_FLOOR_MS = 500;
/** The longest wait between two attempts (unless the server's `retry` asks for more). */
const MAX_BACKOFF_MS = 30_000;
/** Statuses that may pass: a busy or restarting server, or a stream it has not yet seen drop (409). */
const RETRYABLE = new Set([408, 409, 425, 429, 500, 502, 503, 504]);

/**
 * Where a legacy session's GET stream stands: `connecting` (the first attempt), `open`,
 * `reconnecting` (it dropped: waiting, or trying again), or why it stopped for good —
 * `unoffered` (405: the server has no GET stream), `session-expired` (404), `refused` (another
 * refusal, reported as a warning), `closed` (the client was closed).
 */
export type SessionStreamState = 'connecting' | 'open' | 'reconnecting' | 'unoffered' | 'session-expired' | 'refused' | 'closed';

/** What the stream needs from its transport. */
export interface SessionStreamIo {
  /** GETs the stream (the session's headers and token), resuming after `lastEventId` when given; rejects when the server cannot be reached. */
  open(lastEventId: string | undefined, signal: AbortSignal): Promise<Response>;
  /** The transport is done with `response` (read to its end, or cancelled). */
  release(response: Response): void;
  /** One event's data: a notification or a request of the server. */
  message(data: string): void;
  /** The stream is back after a drop: what the server sent meanwhile may be lost. */
  resumed(): void;
  /** 404: the server ended the session. */
  sessionGone(): void;
  warn(message: string): void;
}

/** The server's `retry` (2025-11-25 §Resumability; 1 s when it sent none), never below {@link RETRY_FLOOR_MS}. */
export function retryWait(retryMs = DEFAULT_RETRY_MS): number {
  return Math.max(retryMs, RETRY_FLOOR_MS);
}

/**
 * The wait before reconnection attempt `attempt` (0: the first after a drop). The first waits the
 * server's `retry` (see {@link retryWait}: 0.5 s at least); each further attempt that brought no
 * message doubles it, up to 30 s (or `retry` when that is longer). Up to a quarter more is added
 * at random, so that the clients of a restarting server do not all return at once.
 */
export function reconnectDelay(attempt: number, retryMs?: number, random: () => number = Math.random): number {
  const wait = retryWait(retryMs);
  const base = Math.min(wait * 2 ** Math.min(attempt, 16), Math.max(MAX_BACKOFF_MS, wait));
  return base + (random() * base) / 4;
}

type Outcome =
  { readonly retry: 'after-delay' | 'at-once'; readonly delivered?: boolean } | Exclude<SessionStreamState, 'connecting' | 'open' | 'reconnecting'>;

/**
 * The standalone GET stream of a legacy HTTP session (2025-11-25 §Listening for Messages from the
 * Server): list changes, resource updates and the server's requests. The server may close it at
 * any time, and connections drop; it is opened again after the server's `retry` delay, with
 * `Last-Event-ID` once the server gave event ids, backing off while attempts fail. It stops on
 * 405 (no stream offered), on 404 (the session is gone), on another refusal, and on close.
 */
export class SessionStream {
  private current: SessionStreamState = 'connecting';
  private readonly controller = new AbortController();

  constructor(
    private readonly io: SessionStreamIo,
    private readonly maxBytes: number,
  ) {
    void this.run();
  }

  get state(): SessionStreamState {
    return this.current;
  }

  /** Ends the stream and any wait for the next attempt. */
  close(): void {
    if (this.controller.signal.aborted) return;
    this.current = 'closed';
    this.controller.abort();
  }

  private async run(): Promise<void> {
    const cursor: StreamCursor = {};
    const signal = this.controller.signal;
    // `attempt` counts the attempts since a stream last carried a message: the backoff's exponent.
    for (let attempt = 0, first = true; ; first = false) {
      const outcome = await this.connect(cursor, first, signal);
      if (signal.aborted) return;
      if (typeof outcome === 'string') {
        this.current = outcome;
        this.controller.abort();
        if (outcome === 'session-expired') this.io.sessionGone();
        return;
      }
      this.current = 'reconnecting';
      if (outcome.delivered) attempt = 0;
      if (outcome.retry === 'after-delay') await pause(reconnectDelay(attempt++, cursor.retryMs), signal);
      if (signal.aborted) return;
    }
  }

  /** One attempt: opens the stream and reads it until it ends, or says why not. */
  private async connect(cursor: StreamCursor, first: boolean, signal: AbortSignal): Promise<Outcome> {
    let response: Response;
    try {
      response = await this.io.open(cursor.lastEventId, signal);
    } catch (error) {
      if (error instanceof UnauthorizedError || error instanceof ForbiddenError || error instanceof CrossOriginRedirectError)
        return this.refused(error.message);
      return { retry: 'after-delay' };
    }
    try {
      if (response.ok && (response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
        this.current = 'open';
        if (!first) this.io.resumed();
        let delivered = false;
        const onData = (data: string) => {
          delivered = true;
          this.io.message(data);
          return false;
        };
        await readEventStream(response.body, this.maxBytes, onData, cursor).catch((error: unknown) => {
          // A dropped connection is expected; an event over the size limit is worth saying.
          if (error instanceof McpClientError && !signal.aborted) this.io.warn(`The session's GET stream failed: ${error.message}`);
        });
        return { retry: 'after-delay', delivered };
      }
      await response.body?.cancel().catch(() => {});
      if (response.status === 405) return 'unoffered';
      if (response.status === 404) {
        if (cursor.lastEventId === undefined) return 'session-expired';
        // A 404 may also say the server no longer keeps that event: open the stream afresh to tell.
        cursor.lastEventId = undefined;
        return { retry: 'at-once' };
      }
      if (RETRYABLE.has(response.status)) return { retry: 'after-delay' };
      return this.refused(`HTTP ${response.status}${response.ok ? ` with content-type ${JSON.stringify(response.headers.get('content-type'))}` : ''}`);
    } finally {
      this.io.release(response);
    }
  }

  private refused(why: string): 'refused' {
    this.io.warn(`The server refused the session's GET stream (${why}); list changes and server requests will not arrive on it`);
    return 'refused';
  }
}

/** Resolves after `ms`, or at once when `signal` aborts; never holds the process open. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    timer.unref();
    signal.addEventListener('abort', done, { once: true });
  });
}
