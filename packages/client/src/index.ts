/**
 * @decorum/client — an MCP client for every server: stdio, Streamable HTTP and in-process
 * transports; the modern era (2026-07-28) with a fallback to the legacy one (initialize); and
 * `createTestClient` for tests. `McpHost`, which merges N servers for one model, has its own
 * entry point, `@decorum/client/host`, with its helpers and adapters; the class itself is
 * exported here too.
 *
 * @module \@decorum/client
 */
export { McpClient, type McpClientOptions, type ConnectOptions, type RequestOptions, type Progress } from './client.js';
export { connect } from './connect.js';
/** The host that connects N servers for one model; its options, helpers and model adapters are in `@decorum/client/host`. */
export { McpHost } from './host/host.js';
export { transportFor, type ServerLocation, type TransportOptions } from './transports/for-location.js';
export type { ClientTransport, Exchange, TransportEvents, EraInfo } from './transports/transport.js';
export { StdioTransport, DEFAULT_MAX_MESSAGE_BYTES, type StdioTarget, type StreamLimits } from './transports/stdio.js';
export { HttpTransport, type HttpTarget, type BearerTokenProvider } from './transports/http.js';
export type { SessionStreamState } from './transports/session-stream.js';
export { InProcessTransport, type InProcessTarget } from './transports/in-process.js';
export { encodeHeaderValue } from './transports/header-value.js';
export type { EraChoice } from './eras/negotiate.js';
export { MODERN_VERSION, LEGACY_VERSIONS } from './eras/versions.js';
export type { InputHandlers, InputContext, ElicitationRequest } from './input-handlers.js';
export { DEFAULT_ASK_LIMITS, type AskLimits, type AskLimitName } from './ask-limits.js';
export { escapeControls } from './listed-text.js';
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
export {
  McpClientError,
  RequestTimeoutError,
  RequestCancelledError,
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
export { OAuthClient, type OAuthOptions, type AuthorizeStep, type PreRegisteredClient } from './auth/oauth-client.js';
export { MemoryTokenStore, type TokenStore, type StoredAuthorization } from './auth/token-store.js';
export { AuthorizationError } from './auth/authorization-error.js';
export { discoverProtectedResource, discoverAuthorizationServer, canonicalResource, type ProtectedResourceMetadata } from './auth/discovery.js';
export { createTestClient, type TestClientOptions, type TestClient } from './testing/create-test-client.js';
