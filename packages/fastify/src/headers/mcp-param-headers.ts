import type { IncomingHttpHeaders } from 'node:http';
import { HeaderMismatchError } from '@decorum/core';
import { readMcpParamHeaders, type McpParamHeader, type Registry, type ToolEntry } from '@decorum/core/transport';
import { decodeHeaderValue } from './base64-sentinel.js';
import { mismatch, readHeader } from './header-value.js';
import { isJsonObject } from '@decorum/core/transport';

// A decimal number as a client may write an integer: `42`, `-7`, `42.0`, `4.2e1`.
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

function valueAt(args: unknown, path: readonly string[]): unknown {
  let current = args;
  for (const key of path) {
    if (!isJsonObject(current) || !Object.prototype.hasOwnProperty.call(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function argumentPath(path: readonly string[]): string {
  return `arguments.${path.join('.')}`;
}

/** Does the decoded header carry the body value? Integers compare numerically (`42.0` is `42`). */
function matches(param: McpParamHeader, header: string, value: unknown): boolean {
  if (typeof value === 'string') return header === value;
  if (typeof value === 'boolean') return header === String(value);
  if (typeof value === 'number') {
    if (param.type === 'integer') return DECIMAL.test(header) && Number(header) === value;
    return header === String(value);
  }
  return false;
}

/**
 * The `Mcp-Param-{Name}` rules of every tool of one server, worked out at registration (the
 * annotations are read and checked once; a request only walks the known paths).
 */
export class McpParamHeaders {
  private readonly byTool: ReadonlyMap<string, readonly McpParamHeader[]>;

  /** Throws a `DecorumStartupError` (`DECORUM_ERR_INVALID_MCP_HEADER`) for an annotation the spec forbids. */
  constructor(registry: Registry) {
    const byTool = new Map<string, readonly McpParamHeader[]>();
    for (const tool of registry.tools.values()) {
      const params = readMcpParamHeaders(tool);
      if (params.length > 0) byTool.set(tool.name, Object.freeze(params));
    }
    this.byTool = byTool;
  }

  /** Each tool entry's annotations, by entry: one lookup a call (tools added at run time, `server.live.add`, are read on their first call). */
  private readonly byEntry = new WeakMap<ToolEntry, readonly McpParamHeader[]>();

  /**
   * Checks one `tools/call` of the tool the request resolved to. A tool added at run time is read
   * (and its annotations checked; an invalid one throws) on its first call.
   */
  checkTool(tool: ToolEntry, args: unknown, headers: IncomingHttpHeaders): void {
    let params = this.byEntry.get(tool);
    if (params === undefined) {
      // Not seen yet: a tool added at run time (whose annotations are read now), or one whose name was known at registration.
      params = this.byTool.get(tool.name) ?? Object.freeze(readMcpParamHeaders(tool));
      this.byEntry.set(tool, params);
    }
    if (params.length > 0) this.checkParams(params, args, headers);
  }

  /** The annotations of one tool (empty when it has none). */
  of(toolName: string): readonly McpParamHeader[] {
    return this.byTool.get(toolName) ?? [];
  }

  /**
   * Checks one `tools/call` (H-25): an argument present and non-null needs its header, equal after
   * base64-sentinel decoding; an absent or null one needs none, and a header sent for it anyway
   * disagrees with the body. Headers matching no annotation are ignored. Every failure is -32020
   * naming the header.
   */
  check(toolName: string, args: unknown, headers: IncomingHttpHeaders): void {
    this.checkParams(this.byTool.get(toolName) ?? [], args, headers);
  }

  private checkParams(params: readonly McpParamHeader[], args: unknown, headers: IncomingHttpHeaders): void {
    for (const param of params) {
      const raw = readHeader(headers, param.key, param.displayName);
      const header = raw === undefined ? undefined : decodeHeaderValue(param.displayName, raw);
      const value = valueAt(args, param.path);
      if (value === undefined || value === null) {
        if (header !== undefined)
          throw new HeaderMismatchError(
            `Header mismatch: ${param.displayName} header was sent but ${argumentPath(param.path)} is ${value === null ? 'null' : 'absent'}`,
          );
        continue;
      }
      if (header === undefined)
        throw new HeaderMismatchError(`Header mismatch: required header ${param.displayName} is missing (it must carry ${argumentPath(param.path)})`);
      if (param.type === 'integer' && typeof value === 'number' && !Number.isSafeInteger(value)) {
        throw new HeaderMismatchError(`Header mismatch: ${argumentPath(param.path)} is outside ±(2^53−1), so ${param.displayName} cannot mirror it exactly`);
      }
      if (!matches(param, header, value)) throw mismatch(param.displayName, header, value);
    }
  }
}
