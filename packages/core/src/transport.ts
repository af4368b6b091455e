/**
 * @decorum/core/transport — what a transport drives the engine with: the engine and its prepared
 * request, the channel a request's notifications go out on, envelope reading, message encoding
 * (pre-serialized `RawJson` pages, safe JSON), the registry a transport reads (header rules,
 * scopes), legacy sessions and the asks seam. `@decorum/stdio`, `@decorum/fastify` and
 * `@decorum/client`'s in-process transport are built on it; a server's author never needs it.
 *
 * @module \@decorum/core/transport
 */

// The engine, and the channel one request talks through
export { McpEngine, type EngineAnswer, type PreparedRequest } from './engine/engine.js';
export type { RequestChannel } from './engine/request-scope.js';
export type { ChannelFlow, FlowChannel, SubscriptionFilter } from './live/subscription.js';
export { Cancellation } from './engine/cancellation.js';
export { isThenable } from './engine/thenable.js';
export type { RequestMeta } from './engine/meta.js';
export type { CallDescription } from './pipeline/call.js';
export { Pipeline } from './pipeline/pipeline.js';

// Reading and writing messages
export { LineSplitter } from './wire/line-splitter.js';
export { readMcpParamHeaders, type AnnotatedTool, type McpParamHeader } from './schema/x-mcp-header.js';
export { isNotificationShaped, mayHoldProtoKey, parseJson, readEnvelope, readableId, type Envelope } from './engine/envelope.js';
export { strictUtf8 } from './engine/strict-utf8.js';
export {
  encodeMessage,
  encodeMessageBody,
  encodeMessageBytes,
  isErrorResponse,
  RawJson,
  type EngineResponse,
  type PageAnswerBytes,
  type AnswerBody,
  type EngineResultResponse,
} from './engine/raw-json.js';
export { LongTextJson } from './engine/result-json.js';
export { encodeSafely, encodeSafelyBody, encodeSafelyBytes, type UnserializableListener } from './engine/safe-json.js';
export { toJsonRpcError, errorResponse } from './errors/to-json-rpc.js';
export { legacyErrorResponse } from './errors/legacy-errors.js';
export { shutdownErrors } from './errors/shutdown-errors.js';

// What a transport reads of the served registry
export type { Registry } from './registry/registry.js';
export type { ToolEntry, PromptEntry, ResourceEntry } from './registry/entries.js';

// The legacy era: sessions opened with initialize, and how their asks reach the client
export { LegacySession, type LegacyStep, type LegacySessionView } from './legacy/legacy-session.js';
export { isModernShaped, isLegacyOpening } from './legacy/eras.js';
export type { ClientRequestOutlet } from './legacy/client-requests.js';
export type { AskSeam, AskTarget, HandlerAsks, HandlerOutcome } from './asks/handler-asks.js';

// MRTR state across instances: the transports that may be scaled out say so
export { expectSeveralInstances } from './mrtr/several-instances.js';

// Start-up and logging for runners
export { loadTypeBoxCompiler as preloadValidators } from './validation/typebox-compiler.js';
export { createDefaultLogger, type DefaultLoggerOptions } from './logging/logger.js';
