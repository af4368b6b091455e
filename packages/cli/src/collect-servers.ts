import { isServerTarget, type ServerTarget } from '@decorum/core';
import { CliError } from './load-module.js';

/** Every exported class of the module that carries `@McpServer` or decorated members, but those in `exclude` (its catalogue). */
export function collectServers(moduleExports: Record<string, unknown>, path: string, exclude: ReadonlySet<unknown> = new Set()): ServerTarget[] {
  const seen = new Set<unknown>(exclude);
  const servers: ServerTarget[] = [];
  for (const value of Object.values(moduleExports)) {
    if (typeof value === 'function' && !seen.has(value) && isServerTarget(value)) {
      seen.add(value);
      servers.push(value as ServerTarget);
    }
  }
  if (servers.length === 0) {
    throw new CliError(`${path} exports no Decorum server: export a class decorated with @McpServer (or with @Tool, @Resource or @Prompt methods)`);
  }
  return servers;
}
