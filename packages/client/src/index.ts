/**
 * @decorum/client — an MCP client for every server: stdio, Streamable HTTP and in-process
 * transports; the modern era (2026-07-28) with a fallback to the legacy one (initialize);
 * `McpHost`, which merges N servers for one model; and `createTestClient` for tests.
 *
 * @module \@decorum/client
 */
export { McpClient, type McpClientOptions, type ConnectOptions, type RequestOptions, type Progress } from './client.js';
export { connect } from './connect.js';
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
export type * from './results.js';
export * from './errors.js';
export * from './auth/index.js';
export { createTestClient, type TestClientOptions, type TestClient } from './testing/create-test-client.js';
export { McpHost, type McpHostOptions, type HostServerOptions, type HostTool, type HostPrompt, type HostResource, type ServerStatus } from './host/host.js';
export { SERVER_NAME, checkServerName, namespaced, splitNamespaced } from './host/namespacing.js';
export { needsApproval, type ToolCall, type Approve, type ApprovalAnswer, type ApprovalPolicy } from './host/approval.js';
export { toAnthropicTools, runAnthropicToolUse, type AnthropicTool, type AnthropicToolUse, type AnthropicToolResult } from './host/adapters/anthropic.js';
export { toOpenAiTools, runOpenAiToolCall, type OpenAiFunctionTool, type OpenAiToolCall, type OpenAiToolMessage } from './host/adapters/openai.js';
