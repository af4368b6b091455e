/**
 * @decorum/client — an MCP client for every server: stdio, Streamable HTTP and in-process
 * transports; the modern era (2026-07-28) with a fallback to the legacy one (initialize); and
 * `createTestClient` for tests. `McpHost`, which merges N servers for one model, has its own
 * entry point, `@decorum/client/host`, with its helpers and adapters; the class itself is
 * exported here too.
 *
 * @module \@decorum/client
 */
// Connecting to a server and calling it: the client, its options and the types its signatures name.
export { McpClient, type McpClientOptions, type ConnectOptions, type RequestOptions, type CallToolOptions, type Progress } from './client.js';
// Tools that run as tasks (the Tasks extension on 2026-07-28, core tasks on 2025-11-25): what `onStatus` is told and how a call asks.
export type { Task, TaskStatus } from './tasks/task.js';
export type { TaskCallOptions } from './tasks/task-options.js';
export { connect } from './connect.js';
/** The host that connects N servers for one model; its options, helpers and model adapters are in `@decorum/client/host`. */
export { McpHost } from './host/host.js';
export type { ServerLocation } from './transports/for-location.js';
// The transports (McpClient takes any ClientTransport), what they connect to, and their limits.
export type { ClientTransport, Exchange, TransportEvents, EraInfo } from './transports/transport.js';
export { StdioTransport, type StdioTarget, type StreamLimits } from './transports/stdio.js';
export { HttpTransport, type HttpTarget, type BearerTokenProvider } from './transports/http.js';
export type { SessionStreamState } from './transports/session-stream.js';
export { InProcessTransport, type InProcessTarget } from './transports/in-process.js';
export type { EraChoice } from './eras/negotiate.js';
// Answering a server's asks (elicitation, sampling, roots), with limits; the text helper for listing what a server sent.
export type { InputHandlers, InputContext, ElicitationRequest } from './input-handlers.js';
export type { AskLimits, AskLimitName } from './ask-limits.js';
export { escapeControls } from './listed-text.js';
// Change events (subscriptions/listen) and the results' types.
export { Subscription, type SubscriptionFilter, type SubscriptionOptions, type ChangeEvent } from './subscriptions.js';
export type {
  ResultBase,
  CacheableResult,
  PagedResult,
  DiscoverResult,
  ListToolsResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ReadResourceResult,
  CallToolResult,
  GetPromptResult,
  CompleteResult,
  CompletionReference,
  ServerView,
} from './results.js';
// The errors a call rejects with.
export {
  McpClientError,
  RequestTimeoutError,
  RequestCancelledError,
  TaskCancelledError,
  ConnectionClosedError,
  ProtocolViolationError,
  MessageTooLargeError,
  HttpStatusError,
  CrossOriginRedirectError,
  TooManyRedirectsError,
  SessionExpiredError,
  UnauthorizedError,
  ForbiddenError,
  UnsupportedServerError,
  MissingInputHandlerError,
  InputRoundsExceededError,
  AskLimitError,
  AskRefusedError,
  InvalidResultError,
  CallRefusedError,
  UnknownTargetError,
  ClientUsageError,
  SubscriptionEndedError,
  ResourceNotFoundError,
  ServerError,
  type BearerChallenge,
} from './errors.js';
// OAuth 2.1 for Streamable HTTP, and the in-process client for tests.
export { OAuthClient, type OAuthOptions, type AuthorizeStep, type PreRegisteredClient } from './auth/oauth-client.js';
export { MemoryTokenStore, type TokenStore, type StoredAuthorization } from './auth/token-store.js';
export { AuthorizationError } from './auth/authorization-error.js';
export { createTestClient, type TestClientOptions, type TestClient } from './testing/create-test-client.js';
