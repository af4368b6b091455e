/**
 * @decorum/core — what you write a server with: the decorators (`@McpServer`, `@Tool`,
 * `@Resource`, `@Prompt`, `@Complete`, `@Use`, `@Guard`, `@Field`), the request context (`ctx`),
 * `createServer` and its options, the live registry, the errors a handler throws and the protocol
 * types. It knows nothing of bytes: the transports (`@decorum/stdio`,
 * `@decorum/fastify`) frame messages, and what they drive the engine with is
 * `@decorum/core/transport`.
 *
 * @module \@decorum/core
 */
import 'reflect-metadata';

// Writing a server: the decorators, ctx, the asks and the result helpers, with the options and types their signatures name.
// (mcpServerOptionsOf: @decorum/cli reads a module's server options.)
export { McpServer, mcpServerOptionsOf } from './decorators/mcp-server.js';
export { Tool, type ToolDecorator, type ToolHandler } from './decorators/tool.js';
export { Resource, type ResourceHandler, type ResourceTemplateDecorator, type ResourceTemplateOptions } from './decorators/resource.js';
export type { TemplateVariables } from './decorators/template-variables.js';
export { Prompt } from './decorators/prompt.js';
export { Field, McpHeader, type FieldOptions } from './decorators/field.js';
export type { DualClassDecorator, DualMethodDecorator, DualFieldDecorator } from './decorators/standard.js';
export type { McpServerOptions, ToolOptions, TaskOption, ResourceOptions, PromptOptions, CacheOptions, DtoClass, SchemaSource } from './decorators/metadata.js';
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
export { ElicitationSchemaError, type RequestedSchema, type ElicitationSchemaSource } from './asks/elicitation-schema.js';
export { text, image, audio, resourceLink, embeddedResource } from './results/content.js';

// Serving it: createServer and its options, which the transports and mcp-serve take as they are.
export { createServer } from './server/create-server.js';
export type { ServerOptions, ServerTarget, DecorumServer } from './server/types.js';
export type { UnsafePatternPolicy } from './schema/pattern-safety.js';
// Live servers: completion, and run-time changes through `server.live` (made by createServer, never by a user).
export { Complete, type CompletionTarget, type CompletionContext, type CompletionValues } from './decorators/complete.js';
export type { LiveRegistry, LiveCollection, LiveTarget, LiveClass, LiveRegistryOptions } from './live/live-registry.js';
// The notification bus: an option of createServer, and the interface @decorum/redis (or your own bus) implements.
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
// (isServerTarget: @decorum/cli picks a module's servers.)
export { isServerTarget } from './registry/scanner.js';
export type { Logger } from './logging/logger.js';
// The legacy era (2025-11-25 and earlier, initialize-based sessions): its options
export type { Eras } from './era/eras.js';
export type { LegacySessionOptions } from './legacy/legacy-session.js';
// (LEGACY_PROTOCOL_VERSIONS: @decorum/fastify advertises them.)
export { LEGACY_PROTOCOL_VERSIONS } from './era/versions.js';

// Extensions: one value each (id, settings, methods, middleware), installed by createServer's `extensions`.
export { defineExtension } from './extensions/define-extension.js';
export { extensionData } from './extensions/extension-data.js';
export { toolOption } from './extensions/tool-options.js';
// (ToolEntry: what an around step's `applies` and `toolOption` read of a tool.)
export type { ToolEntry } from './registry/entries.js';
export type {
  Extension,
  ExtensionEras,
  ExtensionRequest,
  ExtensionMethod,
  ExtensionNotification,
  ExtensionHost,
  ExtensionListen,
  InstalledExtension,
  Around,
  DerivedCallOptions,
  StoredToolCall,
  ToolOptionCheck,
} from './extensions/extension.js';
export type { ExtensionEvent } from './live/events.js';

// The request pipeline: middleware, guards, rate limits (and the store @decorum/redis implements), telemetry, dependency injection
export { Use } from './decorators/use.js';
export { Guard } from './decorators/guard.js';
export type { PipelineCall } from './pipeline/call.js';
export type { CallTarget } from './registry/targets.js';
export { forMethods, type Middleware, type Next, type CallResult } from './pipeline/middleware.js';
export type { Guard as GuardFunction } from './pipeline/guard.js';
export type { PipelineOptions } from './pipeline/pipeline.js';
export { DEFAULT_STEP_TIMEOUT_MS } from './pipeline/step-timeout.js';
export { DEFAULT_RATE_LIMIT, type RateLimitOptions } from './pipeline/rate-limit/limiter.js';
export type { RateLimitStore, RateLimitRule, RateLimitDecision } from './pipeline/rate-limit/store.js';
export { MemoryRateLimitStore } from './pipeline/rate-limit/memory-store.js';
export type { TelemetryOptions } from './pipeline/telemetry.js';

// Tasks (#50): where tasks live — the store's contract, the default in-memory store, and leases across instances
export type { TaskStore, TaskRecord, TaskStatus, TaskPatch, TaskEvent, TaskPage } from './extensions/tasks/task-store.js';
export { TERMINAL_STATUSES } from './extensions/tasks/task-store.js';
export type { TransitionExpectation } from './extensions/tasks/task-changes.js';
export { MemoryTaskStore, type MemoryTaskStoreOptions } from './extensions/tasks/memory-task-store.js';
// The Tasks extension (io.modelcontextprotocol/tasks): built in; `tasks({ … })` in `extensions` sets its options.
export { tasks } from './extensions/tasks/tasks-extension.js';
export { startTask } from './extensions/tasks/task-start.js';
export type { TasksOptions } from './extensions/tasks/task-settings.js';
export { TaskStoreUnavailableError, TaskStoreFullError } from './errors/task-store-errors.js';
export type { ResolveOptions, ServerResolver, ServerContainer, ServerClass } from './server/dependency-injection.js';
export type { ClassOrMemberDecorator } from './decorators/step-records.js';

// Errors: what a handler throws, and what the transports and the client raise and catch
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
  ForbiddenError,
  RateLimitedError,
} from './errors/protocol-errors.js';
export { DecorumStartupError, StartupErrorCode } from './errors/startup-error.js';
export { DecorumUsageError, UsageErrorCode } from './errors/usage-error.js';

// Protocol: what a handler returns, and the messages the transports and the client speak
export type { JsonSchema } from './schema/json-schema.js';
export type {
  RequestId,
  JsonObject,
  JsonRpcRequest,
  JsonRpcNotification,
  JsonRpcErrorObject,
  JsonRpcResultResponse,
  JsonRpcErrorResponse,
  JsonRpcResponse,
  Implementation,
  Icon,
  ClientCapabilities,
  ServerCapabilities,
  LoggingLevel,
  CacheScope,
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
export { META } from './protocol/meta-keys.js';
export { LATEST_PROTOCOL_VERSION } from './protocol/version.js';
