/**
 * What a server is made from and what it is: the options of `createServer`, the targets it
 * serves, and the built server a transport is handed. Types only, so that the files a server is
 * built from (`live/`, `engine/`) can name it without importing `createServer`.
 */
import type { Logger } from 'pino';
import type { CacheOptions, McpServerOptions } from '../decorators/metadata.js';
import type { McpEngine } from '../engine/engine.js';
import type { Eras } from '../era/eras.js';
import type { ClientRequestOutlet } from '../asks/session/client-requests.js';
import type { LegacySession, LegacySessionOptions } from '../legacy/legacy-session.js';
import type { LiveClass, LiveRegistry } from '../live/live-registry.js';
import type { NotificationBus } from '../live/notification-bus.js';
import type { MrtrOptions } from '../asks/mrtr/input-round.js';
import type { PipelineOptions } from '../pipeline/pipeline.js';
import type { ResolveOptions } from './dependency-injection.js';
import type { Extension } from '../extensions/extension.js';
import type { TaskStore } from '../extensions/tasks/task-store.js';
import type { Implementation } from '../protocol/types.js';
import type { Registry } from '../registry/registry.js';
import type { UnsafePatternPolicy } from '../schema/pattern-safety.js';

/**
 * Options of `createServer`: with the request pipeline's (`middleware`, `guards`,
 * `rateLimit`, `lists`, `telemetry`) and how classes are built (`resolve`, `container`).
 */
export interface ServerOptions extends PipelineOptions, ResolveOptions {
  /** Overrides the `serverInfo` taken from the first `@McpServer` class. */
  info?: Partial<McpServerOptions>;
  /** Items per list page (default 100). */
  pageSize?: number;
  /** Cache hints: `discover` (default 1 h, public), `lists` (5 min, public), `reads` (0, private). */
  cache?: { discover?: CacheOptions; lists?: CacheOptions; reads?: CacheOptions };
  /** The server log (pino). Default: JSON lines on stderr at `DECORUM_LOG_LEVEL` (info). */
  logger?: Logger;
  /**
   * Fan-out of change events to `subscriptions/listen` streams (default: in-process, 1,000 queued
   * per subscriber). A bus spanning instances (`RedisNotificationBus` of `@decorum/redis`) also
   * replicates run-time changes, so every instance serves the same lists.
   */
  notificationBus?: NotificationBus;
  /**
   * Classes not served at start-up that `live.add` may bring in later. They are known by class
   * name, so an `add` of one of them replicates to the other instances (which hold the same list).
   */
  catalogue?: readonly LiveClass[];
  /**
   * MRTR (`ctx.elicit`, `ctx.sample`, `ctx.roots`, `ctx.once`): the keys sealing `requestState`
   * (default `DECORUM_STATE_KEYS`, else a random per-process key), its lifetime (default 10 min)
   * and the `ctx.once` journal bound (default 64 KiB).
   */
  mrtr?: MrtrOptions;
  /**
   * Argument patterns (`@Matches`, TypeBox `pattern`) that can backtrack catastrophically (ReDoS)
   * are checked at start-up: `refuse` (default) fails start-up, `warn` logs and serves, `allow`
   * skips the check. See {@link UnsafePatternPolicy}.
   */
  unsafePatterns?: UnsafePatternPolicy;
  /**
   * Which protocol eras to serve (default `dual`): 2026-07-28 requests statelessly and, on
   * `initialize`, a 2025-11-25 (or older) session on the same process or endpoint. `modern`
   * refuses `initialize` (-32022); `legacy` serves initialize-based sessions only.
   */
  eras?: Eras;
  /** Legacy sessions: how long a client has to answer `ctx.elicit`/`sample`/`roots` (default 5 min). */
  legacy?: LegacySessionOptions;
  /**
   * Extensions to install (`defineExtension`), in this order: their settings are advertised, their
   * methods served and their middleware runs after the server's. Checked together at start-up.
   */
  extensions?: readonly Extension[];
  /**
   * Where tasks live (the Tasks extension, `@Tool({ task })`): default a `MemoryTaskStore`. Giving
   * one installs the extension even when no tool declares `task`.
   */
  taskStore?: TaskStore;
}

/** Something that can be served: a decorated class (built with `new Class()`, or by `resolve`/`container`) or an instance of one. */
export type ServerTarget = (abstract new (...args: never[]) => object) | object;

/** A built server: its registry and the engine that answers for it. Hand it to a transport. */
export interface DecorumServer {
  readonly info: Implementation;
  /** The immutable snapshot serving now; `live` changes replace it. */
  readonly registry: Registry;
  /** Run-time changes (enable/disable/add/remove), each publishing its list-changed event. */
  readonly live: LiveRegistry;
  /** Publishes `notifications/resources/updated` for `uri` to the listens watching it. */
  notifyResourceUpdated(uri: string): void;
  /**
   * Ends every `subscriptions/listen` gracefully (closing result) and closes the extensions;
   * transports call it on shutdown. Resolves once the extensions have closed (Tasks records why
   * its running tasks ended), so a transport reports itself closed only after that; never rejects.
   */
  closeSubscriptions(): Promise<void>;
  readonly engine: McpEngine;
  readonly logger: Logger;
  /** The eras this server serves (`createServer`'s `eras`). */
  readonly eras: Eras;
  /** Opens a legacy session whose session-level messages go to `outlet`; transports call it on `initialize`. */
  openLegacySession(outlet: ClientRequestOutlet): LegacySession;
}
