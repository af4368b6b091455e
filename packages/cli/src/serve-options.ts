import type { ServerContainer, ServerOptions } from '@decorum/core';
import { CliError } from './load-module.js';

/**
 * Server options a module gives `mcp-serve` besides its classes, since the command line cannot
 * build them: an exported `serverOptions` (any `createServer` option: `middleware`, `guards`,
 * `rateLimit`, `lists`, `telemetry`, `resolve`, …) and an exported `container` (a DI container
 * with `resolve(Class)` or `get(Class)`, which builds the exported server classes).
 */
export function collectServeOptions(moduleExports: Record<string, unknown>, path: string): ServerOptions {
  const { serverOptions, container } = moduleExports as { serverOptions?: unknown; container?: unknown };
  if (serverOptions !== undefined && (serverOptions === null || typeof serverOptions !== 'object')) {
    throw new CliError(`${path} exports serverOptions that is not an object (createServer's options)`);
  }
  const options: ServerOptions = { ...(serverOptions as ServerOptions | undefined) };
  if (container !== undefined) {
    const c = container as { resolve?: unknown; get?: unknown } | null;
    if (c === null || (typeof c !== 'object' && typeof c !== 'function') || (typeof c.resolve !== 'function' && typeof c.get !== 'function')) {
      throw new CliError(`${path} exports a container without resolve(Class) or get(Class)`);
    }
    options.container = container as ServerContainer;
  }
  return options;
}
