/**
 * @decorum/core — what you write a server with: the decorators (`@McpServer`, `@Tool`,
 * `@Resource`, `@Prompt`, `@Complete`, `@Use`, `@Guard`, `@Field`), the request context (`ctx`),
 * `createServer` and its options, the live registry, the errors a handler throws, the protocol
 * types and schema helpers. It knows nothing of bytes: the transports (`@decorum/stdio`,
 * `@decorum/fastify`) frame messages, and what they drive the engine with is
 * `@decorum/core/transport`.
 *
 * @module \@decorum/core
 */
import 'reflect-metadata';

// Authoring
export { McpServer, mcpServerOptionsOf } from './decorators/mcp-server.js';
export { Tool, type ToolDecorator, type ToolHandler } from './decorators/tool.js';
export { Resource, type ResourceHandler, type ResourceTemplateDecorator, type ResourceTemplateOptions } from './decorators/resource.js';
export type { TemplateVariables } from './decorators/template-variables.js';
export { Prompt } from './decorators/prompt.js';
export { Field, McpHeader, type FieldOptions } from './decorators/field.js';
export type { DualClassDecorator, DualMethodDecorator, DualFieldDecorator } from './decorators/standard.js';
export type { McpServerOptions, ToolOptions, ResourceOptions, PromptOptions, CacheOptions, DtoClass, SchemaSource } from './decorators/metadata.js';
export type { RequestContext, ToolContext, PromptContext, ResourceContext, ClientView, AuthInfo } from './context/request-context.js';
export { UserError } from './errors/user-error.js';
export { ToolError } from './errors/tool-error.js';
export type {
  ElicitParams,
  ElicitFormParams,
  ElicitUrlParams,
  ElicitResult,
  ElicitValue,
  CreateMessageParams,
  CreateMessageResult,
  Root,
  InputOptions,
  InputRequest,
  InputRequiredResult,
} from './asks/ask-types.js';
export type { MrtrOptions } from './asks/mrtr/input-round.js';
export { STATE_KEYS_ENV } from './asks/mrtr/state-seal.js';
export { ElicitationSchemaError, toRequestedSchema, type RequestedSchema, type ElicitationSchemaSource } from './asks/elicitation-schema.js';
export { text, image, audio, resourceLink, embeddedResource } from './results/content.js';

// Building and serving
export { createServer } from './server/create-server.js';
export type { ServerOptions, ServerTarget, DecorumServer } from './server/types.js';
export { isSafePattern, type UnsafePatternPolicy } from './schema/pattern-safety.js';
// Live servers: run-time changes, subscriptions/listen fan-out, completion
export { Complete, type CompletionTarget, type CompletionContext, type CompletionValues, type Completer } from './decorators/complete.js';
export { LiveRegistry, type LiveCollection, type LiveTarget, type LiveClass, type LiveRegistryOptions } from './live/live-registry.js';
// The notification bus: an option of createServer, and an interface to implement for a bus of your own.
export {
  InProcessNotificationBus,
  DEFAULT_QUEUE_LIMIT,
  type NotificationBus,
  type SubscriberSink,
  type BusSubscription,
  type SubscriberEnd,
  type SubscribeOptions,
  type PublishOptions,
} from './live/notification-bus.js';
export type { LiveEvent, LiveChange, LiveKind } from './live/events.js';
export { serverOf } from './server/server-of.js';
export { isServerTarget } from './registry/scanner.js';
export type { Logger } from './logging/logger.js';
// The legacy era (2025-11-25 and earlier, initialize-based sessions): its options
export type { Eras } from './era/eras.js';
export type { LegacySessionOptions } from './legacy/legacy-session.js';
export { DEFAULT_CLIENT_REQUEST_TIMEOUT_MS } from './asks/session/client-requests.js';
export { LEGACY_PROTOCOL_VERSIONS, LATEST_LEGACY_PROTOCOL_VERSION } from './era/versions.js';

// The request pipeline: middleware, guards, rate limits, telemetry, dependency injection
export { Use } from './decorators/use.js';
export { Guard } from './decorators/guard.js';
export { PipelineCall } from './pipeline/call.js';
export type { CallTarget } from './registry/targets.js';
export { forMethods, type Middleware, type Next, type CallResult } from './pipeline/middleware.js';
export type { Guard as GuardFunction } from './pipeline/guard.js';
export { scopesGuard } from './pipeline/scopes-guard.js';
export type { PipelineOptions } from './pipeline/pipeline.js';
export { DEFAULT_STEP_TIMEOUT_MS } from './pipeline/step-timeout.js';
export { DEFAULT_RATE_LIMIT, type RateLimitOptions } from './pipeline/rate-limit/limiter.js';
export type { RateLimitStore, RateLimitRule, RateLimitDecision } from './pipeline/rate-limit/store.js';
export { MemoryRateLimitStore } from './pipeline/rate-limit/memory-store.js';
export type { TelemetryOptions } from './pipeline/telemetry.js';
export type { ResolveOptions, ServerResolver, ServerContainer, ServerClass } from './server/dependency-injection.js';
export type { ClassOrMemberDecorator } from './decorators/step-records.js';

// Errors
export {
  McpProtocolError,
  ParseError,
  RefusedMessageError,
  InvalidRequestError,
  MethodNotFoundError,
  InvalidParamsError,
  InternalError,
  HeaderMismatchError,
  MissingRequiredClientCapabilityError,
  UnsupportedProtocolVersionError,
  ResourceNotFoundError,
  ClientRequestTimeoutError,
  ClientRequestFailedError,
  ForbiddenError,
  RateLimitedError,
} from './errors/protocol-errors.js';
export { DecorumStartupError, StartupErrorCode } from './errors/startup-error.js';
export { DecorumUsageError, UsageErrorCode } from './errors/usage-error.js';

// Schemas and validation
export { compileSchema, type CompiledSchema } from './schema/compiled-input.js';
export type { JsonSchema } from './schema/json-schema.js';
export type { SchemaInput, SchemaOutput, ToolReturn } from './decorators/schema-type.js';
export type { ValidationIssue, ValidationOutcome } from './schema/issues.js';
export { VALIDATION_META_KEY } from './methods/tools-call.js';

// Protocol
export { LOGGING_LEVELS } from './protocol/types.js';
export type {
  RequestId,
  JsonValue,
  JsonObject,
  JsonRpcRequest,
  JsonRpcNotification,
  JsonRpcErrorObject,
  JsonRpcResultResponse,
  JsonRpcErrorResponse,
  JsonRpcResponse,
  JsonRpcMessage,
  Implementation,
  Icon,
  ClientCapabilities,
  ServerCapabilities,
  LoggingLevel,
  CacheScope,
  CacheHints,
  ResultType,
  Result,
  Annotations,
  TextContent,
  ImageContent,
  AudioContent,
  ResourceLink,
  EmbeddedResource,
  ContentBlock,
  TextResourceContents,
  BlobResourceContents,
  ResourceContents,
  ToolAnnotations,
  ToolDefinition,
  CallToolResult,
  ResourceDescriptor,
  ResourceTemplateDescriptor,
  PromptArgument,
  PromptDescriptor,
  PromptMessage,
  GetPromptResult,
} from './protocol/types.js';
export { META, PROGRESS_TOKEN } from './protocol/meta-keys.js';
export { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from './protocol/version.js';
