import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { LiveRegistry } from '../live/live-registry.js';
import type { ToolEntry } from '../registry/entries.js';
import type { ServerOptions } from './types.js';
import { DecorumStartupError, StartupErrorCode } from '../errors/startup-error.js';
import { BUILT_IN_EXTENSIONS, type BuiltInOptions } from '../extensions/built-in.js';
import { ExtensionSet } from '../extensions/extension-set.js';
import type { Extension, ExtensionHost } from '../extensions/extension.js';

/**
 * The extensions a server installs: the built-ins its tools call for (each unless `extensions`
 * already lists its id, which is how a built-in gets options), then `options.extensions` in order.
 */
export function extensionSetFor(tools: readonly ToolEntry[], options: ServerOptions): ExtensionSet {
  const given = options.extensions ?? [];
  if (!Array.isArray(given)) throw new DecorumStartupError(StartupErrorCode.INVALID_OPTION, 'extensions must be an array of defineExtension() values');
  const listed = new Set(given.map((ext: Extension | undefined) => ext?.id));
  const builtIn = BUILT_IN_EXTENSIONS.map((factory) => factory(tools, options as BuiltInOptions)).filter(
    (ext): ext is Extension => ext !== undefined && !listed.has(ext.id),
  );
  return new ExtensionSet([...builtIn, ...given]);
}

/** What `install` gets: the server's log, bus and journal bound, this process's instance id, and publishing to listens. */
export function extensionHost(live: LiveRegistry, logger: Logger, journalLimitBytes: number): ExtensionHost {
  return {
    logger,
    bus: live.bus,
    instanceId: randomUUID(),
    journalLimitBytes,
    publish: (method, key, params) => live.bus.publish({ type: 'extension', method, key, params }),
  };
}
