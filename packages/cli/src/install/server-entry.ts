import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { HostConfig } from './hosts.js';

/** A stdio server entry of a host config: every path absolute, so the host may start it from any directory. */
export interface ServerEntry {
  type?: 'stdio';
  command: string;
  args: string[];
}

/**
 * The installed `mcp-serve` launcher, symlinks resolved: a host runs `node <this file>` directly,
 * never `npx mcp-serve`, which outside the project would fetch whatever the registry calls `mcp-serve`.
 */
export function installedBin(): string {
  return realpathSync(fileURLToPath(new URL('../../bin/mcp-serve.js', import.meta.url)));
}

/** The entry that runs `mcp-serve <module> …extra` with this Node, in the shape `host` expects. */
export function serverEntry(host: HostConfig, modulePath: string, extra: readonly string[]): ServerEntry {
  const entry = { command: process.execPath, args: [installedBin(), modulePath, ...extra] };
  return host.typed ? { type: 'stdio', ...entry } : entry;
}
