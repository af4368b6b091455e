import type { IncomingHttpHeaders } from 'node:http';
import { META, type JsonRpcRequest } from '@decorum/core';
import type { RequestMeta } from '@decorum/core/transport';
import { decodeHeaderValue } from './base64-sentinel.js';
import { missing, mismatch, readHeader } from './header-value.js';

/** Where `Mcp-Name` comes from, per method; other methods need no `Mcp-Name` (and one sent is ignored). */
const NAME_SOURCE: ReadonlyMap<string, 'name' | 'uri'> = new Map([
  ['tools/call', 'name'],
  ['prompts/get', 'name'],
  ['resources/read', 'uri'],
]);

/**
 * `MCP-Protocol-Version` must be present on every request and equal the body's
 * `_meta["io.modelcontextprotocol/protocolVersion"]` (-32020). Whether that version is supported
 * is the engine's next check (-32022), so an equal-but-unknown version is reported as such.
 */
export function checkProtocolVersionHeader(headers: IncomingHttpHeaders, meta: RequestMeta): void {
  const value = readHeader(headers, 'mcp-protocol-version', 'MCP-Protocol-Version');
  if (value === undefined) throw missing('MCP-Protocol-Version', `the body's _meta["${META.protocolVersion}"]`);
  if (value !== meta.protocolVersion) throw mismatch('MCP-Protocol-Version', value, meta.protocolVersion);
}

/**
 * `Mcp-Method` must equal `method` on every request; `Mcp-Name` must equal `params.name`
 * (`tools/call`, `prompts/get`) or `params.uri` (`resources/read`), or the param an extension
 * method names (`nameParam`, e.g. `taskId`), after base64-sentinel decoding.
 * Values compare case-sensitively: `TOOLS/CALL` is not `tools/call`.
 */
export function checkMethodHeaders(headers: IncomingHttpHeaders, request: JsonRpcRequest, nameParam?: string): void {
  const method = readHeader(headers, 'mcp-method', 'Mcp-Method');
  if (method === undefined) throw missing('Mcp-Method', 'the request method');
  if (method !== request.method) throw mismatch('Mcp-Method', method, request.method);
  const source = NAME_SOURCE.get(request.method) ?? nameParam;
  if (!source) return;
  const raw = readHeader(headers, 'mcp-name', 'Mcp-Name');
  if (raw === undefined) throw missing('Mcp-Name', `params.${source}`);
  const name = decodeHeaderValue('Mcp-Name', raw);
  const body = request.params?.[source];
  if (name !== body) throw mismatch('Mcp-Name', name, body);
}

/** The name a request targets (tool, prompt or resource URI), for logs; `undefined` for other methods. */
export function targetName(request: JsonRpcRequest): string | undefined {
  const source = NAME_SOURCE.get(request.method);
  const value = source ? request.params?.[source] : undefined;
  return typeof value === 'string' ? value : undefined;
}
