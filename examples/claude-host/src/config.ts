import { readFile } from 'node:fs/promises';
import type { ServerLocation } from '@decorum/client';

/**
 * The servers the chat connects, by host name: `{ "servers": { "weather": { "command": "…" }, "docs": { "url": "…" } } }`.
 * `"trustAnnotations": true` beside a server's location lets its read-only tools run unasked.
 */
export interface HostConfig {
  servers: Record<string, ServerLocation & { trustAnnotations?: boolean }>;
  /** The model (default `claude-sonnet-4-5`). */
  model?: string;
}

/** Reads the config file named by `CLAUDE_HOST_CONFIG` (default `./claude-host.json`). */
export async function loadConfig(path = process.env.CLAUDE_HOST_CONFIG ?? 'claude-host.json'): Promise<HostConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new Error(`No host config at ${path}: write { "servers": { "<name>": { "command": "…", "args": [] } | { "url": "…" } } } there, or set CLAUDE_HOST_CONFIG`);
  }
  const config = JSON.parse(text) as HostConfig;
  if (typeof config.servers !== 'object' || config.servers === null) throw new Error(`${path} has no "servers" object`);
  return config;
}
