import { SERVER_METADATA, type McpServerOptions } from './metadata.js';

/** Marks a class as an MCP server and names it (`serverInfo`). */
export function McpServer(options: McpServerOptions): ClassDecorator {
  return (target) => {
    Reflect.defineMetadata(SERVER_METADATA, Object.freeze({ ...options }), target);
  };
}
