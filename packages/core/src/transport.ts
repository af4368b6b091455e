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
export { McpEngine, type EngineAnswer, type SessionOpening } from './engine/engine.js';
export type { RequestChannel } from './engine/request-channel.js';
export type { ChannelFlow, FlowChannel } from './live/subscription.js';
export { Cancellation } from './engine/cancellation.js';
export { isThenable } from './async/thenable.js';
export type { RequestMeta } from './era/request-meta.js';
export type { EraCodec, ErrorOrigin } from './era/codec.js';
export type { ModernCodec } from './era/modern-codec.js';

// Reading and writing messages (RawJson also for middleware: a list's result is a pre-serialized page)
export { LineSplitter } from './wire/line-splitter.js';
export { readMcpParamHeaders, type AnnotatedTool, type McpParamHeader } from './schema/x-mcp-header.js';
export { isNotificationShaped, mayHoldProtoKey, parseJson, readEnvelope, readableId, type Envelope } from './wire/envelope.js';
export { strictUtf8 } from './wire/strict-utf8.js';
export { isJsonObject } from './protocol/json-object.js';
export { isErrorResponse, RawJson, type EngineResponse, type EngineResultResponse } from './wire/raw-json.js';
export {
  encodeMessage,
  type AnswerBody,
  type BodyEncoding,
  type PageAnswerBytes,
  type TextEncoding,
  type UnserializableListener,
} from './wire/encode-message.js';
export { LongTextJson } from './wire/result-json.js';
export { errorResponse } from './errors/to-json-rpc.js';
export { legacyErrorResponse } from './era/legacy-errors.js';
export { shutdownErrors } from './errors/shutdown-errors.js';

// What a transport reads of the served registry
export type { Registry } from './registry/registry.js';
export type { ToolEntry, PromptEntry, ResourceEntry } from './registry/entries.js';

// The legacy era: sessions opened with initialize (by DecorumServer.openLegacySession), and how their asks reach the client
export type { LegacySession, LegacySessionView } from './legacy/legacy-session.js';
export { LegacyCodec } from './era/legacy-codec.js';
export { isLegacyOpening } from './era/eras.js';
export { classifyInbound, classifyByHeaders, classifyByBody, type Inbound } from './wire/inbound.js';
export type { ClientRequestOutlet } from './asks/session/client-requests.js';
export type { AskSeam, AskTarget, HandlerAsks, HandlerOutcome } from './asks/handler-asks.js';

// MRTR state across instances: the transports that may be scaled out say so
export { expectSeveralInstances } from './asks/mrtr/several-instances.js';

// Start-up and logging for runners
export { loadTypeBoxCompiler as preloadValidators } from './schema/typebox/typebox-compiler.js';
export { createDefaultLogger, type DefaultLoggerOptions } from './logging/logger.js';

// Task stores beyond memory (@decorum/redis): the rules of a task's changes, shared with MemoryTaskStore
export { transitioned, answered, cancelRequested, listedFor, type TransitionExpectation } from './extensions/tasks/task-changes.js';
export { readTaskCursor, writeTaskCursor, type TaskListPlace } from './extensions/tasks/task-list-cursor.js';
