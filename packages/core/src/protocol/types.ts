/**
 * Wire types of MCP 2026-07-28, written by hand from `schema.json` and kept honest by
 * `test/spec-schema.test.ts`, which validates what the engine emits against that schema.
 * Only what the framework produces or reads is typed here; open-ended members stay open.
 */

/**
 * A JSON-RPC id: a string or an integer. An integer outside ±2^53 (which a JS number would round)
 * is a `bigint` with its exact value, so that it is echoed unchanged.
 */
export type RequestId = string | number | bigint;
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: unknown };

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: JsonObject;
}

export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: JsonObject;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcResultResponse {
  jsonrpc: '2.0';
  id: RequestId;
  result: Result;
}

export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  /** Absent when the request's id could not be read (the MCP schema forbids `null`). */
  id?: RequestId;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

export interface Implementation {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
}

export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

export interface ClientCapabilities {
  elicitation?: { form?: JsonObject; url?: JsonObject };
  sampling?: { context?: JsonObject; tools?: JsonObject };
  roots?: JsonObject;
  experimental?: Record<string, JsonObject>;
  extensions?: Record<string, JsonObject>;
  [key: string]: unknown;
}

export interface ServerCapabilities {
  tools?: { listChanged?: boolean };
  resources?: { subscribe?: boolean; listChanged?: boolean };
  prompts?: { listChanged?: boolean };
  completions?: JsonObject;
  logging?: JsonObject;
  experimental?: Record<string, JsonObject>;
  extensions?: Record<string, JsonObject>;
}

export type LoggingLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';
export const LOGGING_LEVELS: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

export type CacheScope = 'public' | 'private';

/** Freshness hints carried by cacheable results. */
export interface CacheHints {
  ttlMs: number;
  cacheScope: CacheScope;
}

export type ResultType = 'complete' | 'input_required';

export interface Result {
  resultType: ResultType | string;
  _meta?: JsonObject;
  [key: string]: unknown;
}

export interface Annotations {
  audience?: Array<'user' | 'assistant'>;
  priority?: number;
  lastModified?: string;
}

export interface TextContent { type: 'text'; text: string; annotations?: Annotations; _meta?: JsonObject }
export interface ImageContent { type: 'image'; data: string; mimeType: string; annotations?: Annotations; _meta?: JsonObject }
export interface AudioContent { type: 'audio'; data: string; mimeType: string; annotations?: Annotations; _meta?: JsonObject }
export interface ResourceLink extends ResourceDescriptor { type: 'resource_link' }
export interface EmbeddedResource { type: 'resource'; resource: ResourceContents; annotations?: Annotations; _meta?: JsonObject }
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

export interface TextResourceContents { uri: string; mimeType?: string; text: string; _meta?: JsonObject }
export interface BlobResourceContents { uri: string; mimeType?: string; blob: string; _meta?: JsonObject }
export type ResourceContents = TextResourceContents | BlobResourceContents;

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolDefinition {
  name: string;
  title?: string;
  description?: string;
  icons?: Icon[];
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  annotations?: ToolAnnotations;
  _meta?: JsonObject;
}

export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: JsonObject;
}

/** What `resources/list` describes (also the body of a `resource_link` block). */
export interface ResourceDescriptor {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: JsonObject;
}

export interface ResourceTemplateDescriptor {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: JsonObject;
}

export interface PromptArgument { name: string; title?: string; description?: string; required?: boolean }
export interface PromptDescriptor {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: JsonObject;
}
export interface PromptMessage { role: 'user' | 'assistant'; content: ContentBlock }
export interface GetPromptResult { description?: string; messages: PromptMessage[]; _meta?: JsonObject }
