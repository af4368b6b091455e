import type {
  CacheScope,
  CallToolResult as CoreCallToolResult,
  GetPromptResult as CoreGetPromptResult,
  Implementation,
  JsonObject,
  PromptDescriptor,
  ResourceContents,
  ResourceDescriptor,
  ResourceTemplateDescriptor,
  ServerCapabilities,
  ToolDefinition,
} from '@decorum/core';

/** What every result may carry. Legacy servers send no `resultType`; the client fills in `complete`. */
export interface ResultBase {
  resultType: 'complete';
  _meta?: JsonObject;
}

/** Freshness hints (§10); absent from legacy results. */
export interface CacheableResult extends ResultBase {
  ttlMs?: number;
  cacheScope?: CacheScope;
}

export interface PagedResult extends CacheableResult {
  nextCursor?: string;
}

export interface DiscoverResult extends CacheableResult {
  supportedVersions: string[];
  capabilities: ServerCapabilities;
  instructions?: string;
}

export interface ListToolsResult extends PagedResult {
  tools: ToolDefinition[];
}
export interface ListPromptsResult extends PagedResult {
  prompts: PromptDescriptor[];
}
export interface ListResourcesResult extends PagedResult {
  resources: ResourceDescriptor[];
}
export interface ListResourceTemplatesResult extends PagedResult {
  resourceTemplates: ResourceTemplateDescriptor[];
}
export interface ReadResourceResult extends CacheableResult {
  contents: ResourceContents[];
}
export interface CallToolResult extends ResultBase, CoreCallToolResult {}
export interface GetPromptResult extends ResultBase, CoreGetPromptResult {}
export interface CompleteResult extends ResultBase {
  completion: { values: string[]; total?: number; hasMore?: boolean };
}

/** A reference for `completion/complete`. */
export type CompletionReference = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

/** What the client learned about the server when it connected. */
export interface ServerView {
  readonly era: 'modern' | 'legacy';
  readonly protocolVersion: string;
  readonly serverInfo: Implementation | undefined;
  readonly capabilities: ServerCapabilities;
  readonly instructions: string | undefined;
}
