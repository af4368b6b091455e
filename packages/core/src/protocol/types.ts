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
/** Any JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
/** A JSON object whose values are not narrowed (`_meta`, arguments, structured content). */
export type JsonObject = { [key: string]: unknown };

/** A JSON-RPC 2.0 request: it has an `id` and expects a response. */
export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: JsonObject;
}

/** A JSON-RPC 2.0 notification: no `id`, no response. */
export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: JsonObject;
}

/** The `error` member of a JSON-RPC error response. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** A successful JSON-RPC 2.0 response. */
export interface JsonRpcResultResponse {
  jsonrpc: '2.0';
  id: RequestId;
  result: Result;
}

/** A failed JSON-RPC 2.0 response (`id` is `null` when the request could not be read). */
export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  /** Absent when the request's id could not be read (the MCP schema forbids `null`). */
  id?: RequestId;
  error: JsonRpcErrorObject;
}

/** Either kind of JSON-RPC 2.0 response. */
export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;
/** Anything that travels over an MCP connection. */
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** The name and version of a server or client (`serverInfo`, `clientInfo`). */
export interface Implementation {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
}

/** An icon a host may show for a server, tool, resource or prompt. */
export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

/** What the client can do, sent in each request's `_meta`. */
export interface ClientCapabilities {
  elicitation?: { form?: JsonObject; url?: JsonObject };
  sampling?: { context?: JsonObject; tools?: JsonObject };
  roots?: JsonObject;
  experimental?: Record<string, JsonObject>;
  extensions?: Record<string, JsonObject>;
  [key: string]: unknown;
}

/** What the server serves, returned by `server/discover`. */
export interface ServerCapabilities {
  tools?: { listChanged?: boolean };
  resources?: { subscribe?: boolean; listChanged?: boolean };
  prompts?: { listChanged?: boolean };
  completions?: JsonObject;
  logging?: JsonObject;
  experimental?: Record<string, JsonObject>;
  extensions?: Record<string, JsonObject>;
}

/** The syslog severities of `notifications/message`, lowest first. */
export type LoggingLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';
/** Every {@link LoggingLevel}, lowest first. */
export const LOGGING_LEVELS: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** Who may reuse a cached result: any client (`public`) or only the one that asked (`private`). */
export type CacheScope = 'public' | 'private';

/** Freshness hints carried by cacheable results. */
export interface CacheHints {
  ttlMs: number;
  cacheScope: CacheScope;
}

/** Whether a result is final (`complete`) or asks the client for input first (`input_required`, MRTR). */
export type ResultType = 'complete' | 'input_required';

/**
 * The fields every result carries. A method and a middleware may leave `resultType` out: the
 * 2026-07-28 codec answers `complete` then, and the legacy revisions have no such key.
 */
export interface Result {
  resultType?: ResultType | string;
  _meta?: JsonObject;
  [key: string]: unknown;
}

/** Hints about a content block or resource: its audience, priority and last change. */
export interface Annotations {
  audience?: Array<'user' | 'assistant'>;
  priority?: number;
  lastModified?: string;
}

/** A text content block. */
export interface TextContent {
  type: 'text';
  text: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}
/** An image content block (base64 `data`). */
export interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}
/** An audio content block (base64 `data`). */
export interface AudioContent {
  type: 'audio';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}
/** A content block that points at a resource without embedding it. */
export interface ResourceLink extends ResourceDescriptor {
  type: 'resource_link';
}
/** A content block that embeds a resource's contents. */
export interface EmbeddedResource {
  type: 'resource';
  resource: ResourceContents;
  annotations?: Annotations;
  _meta?: JsonObject;
}
/** Any content block of a tool result or prompt message. */
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

/** The contents of a text resource. */
export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
  _meta?: JsonObject;
}
/** The contents of a binary resource (base64 `blob`). */
export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  blob: string;
  _meta?: JsonObject;
}
/** Either kind of resource contents. */
export type ResourceContents = TextResourceContents | BlobResourceContents;

/** Hints about a tool's behaviour (read-only, destructive, idempotent, open-world); never trusted for security. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A tool as `tools/list` lists it. */
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

/** The result of `tools/call`. */
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

/** A resource template as `resources/templates/list` lists it. */
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

/** One argument of a prompt, as `prompts/list` lists it. */
export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}
/** A prompt as `prompts/list` lists it. */
export interface PromptDescriptor {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: JsonObject;
}
/** One message of a prompt. */
export interface PromptMessage {
  role: 'user' | 'assistant';
  content: ContentBlock;
}
/** The result of `prompts/get`. */
export interface GetPromptResult {
  description?: string;
  messages: PromptMessage[];
  _meta?: JsonObject;
}
