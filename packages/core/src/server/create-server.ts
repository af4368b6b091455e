import type { Logger } from 'pino';
import type { CacheOptions, McpServerOptions } from '../decorators/metadata.js';
import { McpEngine } from '../engine/engine.js';
import type { ServingState } from '../engine/method.js';
import { DecorumStartupError, StartupErrorCode } from '../errors/startup-error.js';
import { createDefaultLogger } from '../logging/logger.js';
import { META } from '../protocol/meta-keys.js';
import type { CacheHints, Implementation } from '../protocol/types.js';
import type { Registry } from '../registry/registry.js';
import { isDecorumServer, scanServer } from '../registry/scanner.js';
import { LiveRegistry, type LiveClass } from '../live/live-registry.js';
import { InProcessNotificationBus, type NotificationBus } from '../live/notification-bus.js';
import { bindServer } from '../live/server-of.js';
import { mrtrConfig, type MrtrOptions } from '../mrtr/input-round.js';
import { readEras, type Eras } from '../legacy/eras.js';
import { LegacySession, type LegacySessionOptions } from '../legacy/legacy-session.js';
import type { ClientRequestOutlet } from '../legacy/client-requests.js';
import { Pipeline, type PipelineOptions } from '../pipeline/pipeline.js';
import { serverInstantiator, type ResolveOptions, type ServerClass } from '../pipeline/resolve.js';
import { checkPatterns, type UnsafePatternPolicy } from '../schema/pattern-safety.js';

/**
 * Options of {@link createServer}: with the request pipeline's (`middleware`, `guards`,
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
  /** Ends every `subscriptions/listen` gracefully (closing result); transports call it on shutdown. */
  closeSubscriptions(): void;
  readonly engine: McpEngine;
  readonly logger: Logger;
  /** The eras this server serves (`createServer`'s `eras`). */
  readonly eras: Eras;
  /** Opens a legacy session whose session-level messages go to `outlet`; transports call it on `initialize`. */
  openLegacySession(outlet: ClientRequestOutlet): LegacySession;
}

const DEFAULTS = {
  discover: { ttlMs: 3_600_000, cacheScope: 'public' },
  lists: { ttlMs: 300_000, cacheScope: 'public' },
  reads: { ttlMs: 0, cacheScope: 'private' },
} as const satisfies Record<string, CacheHints>;

function hints(custom: CacheOptions | undefined, fallback: CacheHints): CacheHints {
  const ttlMs = custom?.ttlMs ?? fallback.ttlMs;
  if (!Number.isInteger(ttlMs) || ttlMs < 0) {
    throw new DecorumStartupError(StartupErrorCode.INVALID_OPTION, `ttlMs must be an integer ≥ 0 (got ${ttlMs})`);
  }
  return { ttlMs, cacheScope: custom?.cacheScope ?? fallback.cacheScope };
}

/**
 * Builds a server from decorated classes (merged into one registry) at start-up: scanning,
 * schema generation, validator compilation and list serialization all happen here, once.
 * A duplicate tool, prompt or resource name across classes is a start-up error.
 */
export function createServer(targets: readonly ServerTarget[] | DecorumServer, options: ServerOptions = {}): DecorumServer {
  if (!Array.isArray(targets)) return targets as DecorumServer;
  if (targets.length === 0) throw new DecorumStartupError(StartupErrorCode.NO_SERVERS, 'createServer needs at least one decorated class');
  for (const target of targets) {
    if (!isDecorumServer(target)) {
      const name = typeof target === 'function' ? target.name : (target as object).constructor?.name;
      throw new DecorumStartupError(StartupErrorCode.NO_SERVERS, `${name || 'value'} is not a Decorum server: it has no @McpServer and no @Tool, @Resource or @Prompt members`);
    }
  }
  const instantiate = serverInstantiator(options);
  const instances = targets.map((t) => (typeof t === 'function' ? instantiate(t as ServerClass) : (t as object)));
  const scanned = instances.map((instance) => scanServer(instance));
  const declared = scanned.find((s) => s.server)?.server;
  const merged = { ...declared, ...options.info };
  const info: Implementation = Object.freeze(
    Object.fromEntries(
      Object.entries({
        name: merged.name ?? scanned[0].className,
        version: merged.version ?? '0.0.0',
        title: merged.title,
        description: merged.description,
        websiteUrl: merged.websiteUrl,
        icons: merged.icons,
      }).filter(([, v]) => v !== undefined),
    ) as unknown as Implementation,
  );
  const instructions = options.info?.instructions ?? scanned.map((s) => s.server?.instructions).filter(Boolean).join('\n\n');
  const pageSize = options.pageSize ?? 100;
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new DecorumStartupError(StartupErrorCode.INVALID_OPTION, `pageSize must be a positive integer (got ${pageSize})`);
  const settings = { pageSize, listCache: hints(options.cache?.lists, DEFAULTS.lists), resultMeta: { [META.serverInfo]: info } };
  const logger = options.logger ?? createDefaultLogger();
  checkPatterns(
    scanned.flatMap((s) => [...s.tools.map((t) => ({ source: t.source, schema: t.input.jsonSchema })), ...s.prompts.map((p) => ({ source: p.source, schema: p.input.jsonSchema }))]),
    options.unsafePatterns ?? 'refuse',
    logger,
  );
  const live = new LiveRegistry(scanned, instances, settings, options.notificationBus ?? new InProcessNotificationBus(), { catalogue: options.catalogue, logger });
  live.instantiate = instantiate;
  const state: ServingState = {
    get registry() {
      return live.current;
    },
    live,
    info,
    instructions: instructions || undefined,
    discoverCache: hints(options.cache?.discover, DEFAULTS.discover),
    readCache: hints(options.cache?.reads, DEFAULTS.reads),
    logger,
    mrtr: mrtrConfig(options.mrtr, logger),
    pipeline: new Pipeline(options, settings),
  };
  const eras = readEras(options.eras);
  const engine = new McpEngine(state);
  const server: DecorumServer = {
    info,
    eras,
    openLegacySession: (outlet) => new LegacySession(engine, outlet, options.legacy),
    get registry() {
      return live.current;
    },
    live,
    engine,
    logger,
    notifyResourceUpdated: (uri) => live.notifyResourceUpdated(uri),
    closeSubscriptions: () => live.bus.shutdown(),
  };
  live.onAdd = (instance) => bindServer(instance, server);
  for (const instance of instances) bindServer(instance, server);
  return server;
}
