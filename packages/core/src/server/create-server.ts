import type { CacheOptions } from '../decorators/metadata.js';
import { McpEngine } from '../engine/engine.js';
import type { ServingState } from '../methods/method.js';
import { ModernCodec } from '../era/modern-codec.js';
import { DecorumStartupError, StartupErrorCode } from '../errors/startup-error.js';
import { createDefaultLogger } from '../logging/logger.js';
import type { CacheHints, Implementation } from '../protocol/types.js';
import { isServerTarget, scanServer } from '../registry/scanner.js';
import type { ListSettings } from '../registry/registry.js';
import { LiveRegistry } from '../live/live-registry.js';
import { InProcessNotificationBus } from '../live/notification-bus.js';
import { bindServer } from './server-of.js';
import { mrtrConfig } from '../asks/mrtr/input-round.js';
import { readEras } from '../era/eras.js';
import { LegacySession } from '../legacy/legacy-session.js';
import { Pipeline } from '../pipeline/pipeline.js';
import { serverInstantiator, type ServerClass } from './dependency-injection.js';
import { checkPatterns } from '../schema/pattern-safety.js';
import type { DecorumServer, ServerOptions, ServerTarget } from './types.js';
import { extensionHost, extensionSetFor } from './server-extensions.js';

const DEFAULTS = {
  discover: { ttlMs: 3_600_000, cacheScope: 'public' },
  lists: { ttlMs: 300_000, cacheScope: 'public' },
  reads: { ttlMs: 0, cacheScope: 'private' },
} as const satisfies Record<string, CacheHints>;

function hints(custom: CacheOptions | undefined, fallback: CacheHints): CacheHints {
  const ttlMs = custom?.ttlMs ?? fallback.ttlMs;
  if (!Number.isInteger(ttlMs) || ttlMs < 0) {
    throw new DecorumStartupError(StartupErrorCode.INVALID_NUMBER, `ttlMs must be an integer ≥ 0 (got ${ttlMs})`);
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
    if (!isServerTarget(target)) {
      const name = typeof target === 'function' ? target.name : (target as object).constructor?.name;
      throw new DecorumStartupError(
        StartupErrorCode.NO_SERVERS,
        `${name || 'value'} is not a Decorum server: it has no @McpServer and no @Tool, @Resource or @Prompt members`,
      );
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
  const instructions =
    options.info?.instructions ??
    scanned
      .map((s) => s.server?.instructions)
      .filter(Boolean)
      .join('\n\n');
  const pageSize = options.pageSize ?? 100;
  if (!Number.isInteger(pageSize) || pageSize < 1)
    throw new DecorumStartupError(StartupErrorCode.INVALID_NUMBER, `pageSize must be a positive integer (got ${pageSize})`);
  const modern = new ModernCodec(info);
  const settings: ListSettings = { pageSize, listCache: hints(options.cache?.lists, DEFAULTS.lists), modern };
  const logger = options.logger ?? createDefaultLogger();
  checkPatterns(
    scanned.flatMap((s) => [
      ...s.tools.map((t) => ({ source: t.source, schema: t.input.jsonSchema })),
      ...s.prompts.map((p) => ({ source: p.source, schema: p.input.jsonSchema })),
    ]),
    options.unsafePatterns ?? 'refuse',
    logger,
  );
  const extensions = extensionSetFor(
    scanned.flatMap((s) => s.tools),
    options,
  );
  extensions.checkTools(scanned.flatMap((s) => s.tools));
  if (extensions.hasLegacyToolFields) settings.legacyToolFields = (tool, version) => extensions.legacyToolFields(tool, version);
  const live = new LiveRegistry(scanned, settings, options.notificationBus ?? new InProcessNotificationBus(), {
    catalogue: options.catalogue,
    logger,
    instantiate,
    // `server` is made below; nothing is added before this function returns.
    onAdd: (instance) => bindServer(instance, server),
    checkTools: (tools) => extensions.checkTools(tools),
  });
  const mrtr = mrtrConfig(options.mrtr, logger);
  const state: ServingState = {
    get registry() {
      return live.current;
    },
    live,
    info,
    modern,
    instructions: instructions || undefined,
    discoverCache: hints(options.cache?.discover, DEFAULTS.discover),
    readCache: hints(options.cache?.reads, DEFAULTS.reads),
    logger,
    mrtr,
    pipeline: new Pipeline(options, settings, options.notificationBus?.rateLimitStore, logger, extensions),
    extensions,
  };
  const eras = readEras(options.eras);
  const engine = new McpEngine(state);
  let extensionsClosed: Promise<void> | undefined;
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
    closeSubscriptions: () => {
      live.bus.shutdown();
      return (extensionsClosed ??= extensions.close(logger));
    },
  };
  extensions.install(extensionHost(live, logger, mrtr.journalLimitBytes));
  for (const instance of instances) bindServer(instance, server);
  return server;
}
