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
