import { readMcpParamHeaders, type McpParamHeader } from '@decorum/core/transport';
import type { JsonObject, ToolDefinition } from '@decorum/core';
import { encodeHeaderValue } from './header-value.js';

/**
 * The HTTP client's view of each tool's `x-mcp-header` annotations (H-22…H-25): which arguments
 * are mirrored into `Mcp-Param-{Name}` headers. A tool whose annotations break the rules is
 * dropped from the `tools/list` the caller sees, with a warning (H-23) — the same rules the
 * server side checks at start-up, so both sides read annotations alike.
 */
export class ToolHeaders {
  private readonly byTool = new Map<string, readonly McpParamHeader[]>();

  constructor(private readonly warn: (message: string) => void) {}

  /** Records the tools of one `tools/list` page; returns the ones an HTTP client may call. */
  accept(tools: readonly ToolDefinition[]): ToolDefinition[] {
    const kept: ToolDefinition[] = [];
    for (const tool of tools) {
      try {
        const headers = readMcpParamHeaders({ name: tool.name, source: 'tools/list', definition: tool });
        if (headers.length > 0) this.byTool.set(tool.name, headers);
        else this.byTool.delete(tool.name);
        kept.push(tool);
      } catch (error) {
        this.byTool.delete(tool.name);
        this.warn(`Dropped tool "${tool.name}" from tools/list: ${(error as Error).message.replace(/^tool "[^"]*" \(tools\/list\): /, '')}`);
      }
    }
    return kept;
  }

  /** The `Mcp-Param-*` headers of one `tools/call` (absent or null arguments send none, H-25). */
  headersFor(tool: string, args: JsonObject | undefined): Record<string, string> {
    const out: Record<string, string> = {};
    for (const header of this.byTool.get(tool) ?? []) {
      let value: unknown = args;
      for (const key of header.path) value = value !== null && typeof value === 'object' ? (value as JsonObject)[key] : undefined;
      if (typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) {
        out[header.displayName] = encodeHeaderValue(value);
      }
    }
    return out;
  }
}
