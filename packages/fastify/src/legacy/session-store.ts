import { randomUUID } from 'node:crypto';
import { encodeMessage, type ClientRequestOutlet, type LegacySession } from '@decorum/core/transport';
import { HttpRefusal } from '../refusal.js';
import { EventStream } from './event-stream.js';
import { ReplayWindow } from './replay-window.js';

/** The `legacySessions` option of `mcpPlugin`. */
export interface LegacySessionsOptions {
  /** A session not used for this long (ms) ends; its id then answers 404 (default 1800000: 30 min). */
  idleTimeoutMs?: number;
  /** At most this many sessions at once; `initialize` beyond it gets 503 (default 10000). */
  maxSessions?: number;
  /**
   * At most this many sessions at once per caller — the token's subject (`auth`), else the remote
   * address (`request.ip`: set Fastify's `trustProxy` behind a proxy) — so that one caller cannot
   * take every slot; its `initialize` beyond it gets 503 with `Retry-After` (default 100).
   */
  maxSessionsPerPrincipal?: number;
  /**
   * Events kept per session, across its streams, for `Last-Event-ID` resumption (default 1000).
   * The oldest go first; a `Last-Event-ID` before an event no longer kept gets 404.
   */
  replayEvents?: number;
  /**
   * Bytes of events kept per session, across its streams, for resumption (default 4 MiB; counted
   * as the events' characters). An event larger than this is sent but not kept.
   */
  replayBytes?: number;
  /** Streams kept per session for resumption, finished POST streams included (default 16). */
  streamsPerSession?: number;
}

/** One legacy session on HTTP: its id, its core session, its streams and who opened it. */
export class HttpSession {
  lastSeen = Date.now();
  /** The standalone GET stream: session-level messages, kept for the next GET while none is open. */
  readonly standalone: EventStream;
  private readonly streams = new Map<string, EventStream>();
  private nextStream = 0;
  /** Requests running (a session with work in flight does not expire). */
  running = 0;
  /** The events its streams keep for resumption, bounded per session. */
  private readonly window: ReplayWindow;

  constructor(
    readonly id: string,
    readonly core: LegacySession,
    /** Who opened it (the token's principal), when the endpoint is protected. */
    readonly principal: string | undefined,
    /** Whose quota it counts against (see `maxSessionsPerPrincipal`). */
    readonly caller: string,
    private readonly options: Required<LegacySessionsOptions>,
    private readonly keepAliveMs: number,
  ) {
    this.window = new ReplayWindow(options.replayBytes, options.replayEvents);
    this.standalone = this.stream();
  }

  /** A new stream of this session; the oldest finished ones are forgotten beyond the bound. */
  stream(): EventStream {
    const stream = new EventStream(`${this.nextStream++}`, this.window, this.keepAliveMs);
    this.streams.set(stream.id, stream);
    if (this.streams.size > this.options.streamsPerSession) {
      for (const [id, old] of this.streams) {
        if (old !== this.standalone && (old.ended || !old.attached)) {
          this.streams.delete(id);
          old.forget();
          break;
        }
      }
    }
    return stream;
  }

  findStream(id: string): EventStream | undefined {
    return this.streams.get(id);
  }

  close(): void {
    this.core.close();
    for (const stream of this.streams.values()) stream.close();
    this.streams.clear();
  }
}

const DEFAULTS: Required<LegacySessionsOptions> = {
  idleTimeoutMs: 1_800_000,
  maxSessions: 10_000,
  maxSessionsPerPrincipal: 100,
  replayEvents: 1000,
  replayBytes: 4 * 1024 * 1024,
  streamsPerSession: 16,
};

/** Whose quota a session counts against: the token's subject, else the remote address (never confused with a subject). */
export function callerKey(principal: string | undefined, address: string): string {
  return principal === undefined ? `address ${address}` : `subject ${principal}`;
}

/** Reads the option, with its defaults (start-up error text when a value is wrong). */
export function legacySessionsOptions(options: LegacySessionsOptions | undefined): Required<LegacySessionsOptions> {
  const resolved = { ...DEFAULTS, ...options };
  for (const [key, value] of Object.entries(resolved)) {
    if (!Number.isInteger(value) || value < 1) throw new RangeError(`mcpPlugin: legacySessions.${key} must be a positive integer (got ${String(value)})`);
  }
  return resolved;
}

/**
 * The legacy sessions of one endpoint, by `Mcp-Session-Id` (a random UUID: visible ASCII, not
 * guessable). Idle sessions end after `idleTimeoutMs` (swept periodically, and whenever a count
 * is at its bound); the count is bounded by `maxSessions`, and per caller by `maxSessionsPerPrincipal`.
 */
export class SessionStore {
  private readonly sessions = new Map<string, HttpSession>();
  /** Open sessions per caller (see {@link callerKey}); a caller with none has no entry. */
  private readonly perCaller = new Map<string, Set<HttpSession>>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    readonly options: Required<LegacySessionsOptions>,
    private readonly keepAliveMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.sweeper = setInterval(() => this.sweep(), Math.min(60_000, Math.max(1000, Math.floor(options.idleTimeoutMs / 2))));
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  /**
   * True when `maxSessions` live sessions are open. At the bound, expired sessions the sweeper has
   * not reached yet are ended first: they must not cost a new client its session (503).
   */
  isFull(): boolean {
    if (this.sessions.size < this.options.maxSessions) return false;
    this.sweep();
    return this.sessions.size >= this.options.maxSessions;
  }

  /**
   * Why `caller` may not open a session now (503 with `Retry-After`), or `undefined`: its own
   * quota first, then the endpoint's bound. Expired sessions are ended first, as for {@link isFull}.
   */
  refusal(caller: string): HttpRefusal | undefined {
    const retry = { 'retry-after': '60' };
    const own = this.perCaller.get(caller);
    if (own && own.size >= this.options.maxSessionsPerPrincipal) {
      // Only this caller's sessions are looked at: a refused caller cannot make every initialize walk the whole store.
      for (const session of own) if (this.expired(session)) this.delete(session.id);
      const open = own.size;
      if (open >= this.options.maxSessionsPerPrincipal) {
        return new HttpRefusal(
          'too-many-sessions',
          `Service Unavailable: this caller has ${open} sessions open, the most legacySessions.maxSessionsPerPrincipal allows; end one (DELETE) or try again later`,
          retry,
        );
      }
    }
    if (this.isFull()) {
      return new HttpRefusal('too-many-sessions', `Service Unavailable: ${this.size} sessions are open, the most this endpoint keeps; try again later`, retry);
    }
    return undefined;
  }

  /** Opens a session; `open` builds its core session, whose session-level messages go to the standalone stream. */
  create(principal: string | undefined, open: (outlet: ClientRequestOutlet) => LegacySession, caller = callerKey(principal, '')): HttpSession {
    // The core session's outlet needs the HTTP session, which needs the core session: a holder breaks the knot.
    const holder: { session?: HttpSession } = {};
    const core = open((message) => holder.session?.standalone.send(encodeMessage(message as never)));
    const session = (holder.session = new HttpSession(randomUUID(), core, principal, caller, this.options, this.keepAliveMs));
    session.lastSeen = this.now();
    this.sessions.set(session.id, session);
    const own = this.perCaller.get(caller);
    if (own) own.add(session);
    else this.perCaller.set(caller, new Set([session]));
    return session;
  }

  /** The live session with this id (touched), or `undefined` when unknown, ended or expired. */
  get(id: string): HttpSession | undefined {
    const session = this.sessions.get(id);
    if (!session) return undefined;
    if (this.expired(session)) {
      this.delete(id);
      return undefined;
    }
    session.lastSeen = this.now();
    return session;
  }

  delete(id: string): boolean {
    const session = this.sessions.get(id);
    if (!session) return false;
    this.sessions.delete(id);
    const own = this.perCaller.get(session.caller)!;
    own.delete(session);
    if (own.size === 0) this.perCaller.delete(session.caller);
    session.close();
    return true;
  }

  private expired(session: HttpSession): boolean {
    return session.running === 0 && !session.standalone.attached && this.now() - session.lastSeen >= this.options.idleTimeoutMs;
  }

  /** Ends the sessions idle for longer than the timeout. */
  sweep(): void {
    for (const [id, session] of this.sessions) if (this.expired(session)) this.delete(id);
  }

  /** Ends every standalone GET stream (shutdown); sessions and their running requests go on. */
  closeStandaloneStreams(): void {
    for (const session of this.sessions.values()) session.standalone.close();
  }

  closeAll(): void {
    clearInterval(this.sweeper);
    for (const id of [...this.sessions.keys()]) this.delete(id);
  }
}
