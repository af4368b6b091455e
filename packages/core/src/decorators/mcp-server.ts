import { SERVER_METADATA, type McpServerOptions } from './metadata.js';
import type { DualClassDecorator } from './standard.js';

/**
 * Marks a class as an MCP server and names it (`serverInfo`). Legacy or standard decorator: both
 * hand it the class itself, and the record goes on the class either way.
 */
export function McpServer(options: McpServerOptions): DualClassDecorator {
  return ((target: object) => {
    Reflect.defineMetadata(SERVER_METADATA, Object.freeze({ ...options }), target);
  }) as DualClassDecorator;
}

/**
 * What `@McpServer` recorded on a class (or on an instance's class): its name, version and
 * instructions; `undefined` when it carries none. For tools that look at modules before serving them.
 */
export function mcpServerOptionsOf(target: unknown): McpServerOptions | undefined {
  const ctor = typeof target === 'function' ? target : (target as { constructor?: unknown } | null)?.constructor;
  return typeof ctor === 'function' ? (Reflect.getMetadata(SERVER_METADATA, ctor) as McpServerOptions | undefined) : undefined;
}
