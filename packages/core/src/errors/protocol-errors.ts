import type { ClientCapabilities, RequestId } from '../protocol/types.js';
import { protocolError } from './protocol-error-class.js';

export { McpProtocolError } from './mcp-protocol-error.js';

// The protocol error table: one row per error, `protocolError(code, default message, data from the constructor's arguments)`.

/** -32700: the bytes were not JSON. */
export class ParseError extends protocolError(-32700, 'Parse error') {}

/** -32600: JSON, but not a single valid JSON-RPC request or notification. */
export class InvalidRequestError extends protocolError(-32600, 'Invalid Request') {}

/** -32601: unknown method, or one gated by a capability this server does not serve. */
export class MethodNotFoundError extends protocolError(-32601, 'Method not found') {}

/** -32602: the request's params are wrong (missing `_meta`, unknown tool, bad cursor, …). */
export class InvalidParamsError extends protocolError(-32602, 'Invalid params') {}

/** -32603: the server failed. The message is generic; details stay in the server log. */
export class InternalError extends protocolError(-32603, 'Internal error') {}

/** -32020: an MCP HTTP header is missing, malformed, or disagrees with the body. */
export class HeaderMismatchError extends protocolError(-32020, 'Header mismatch') {}

/** -32021: serving the request needs a client capability this request did not declare. */
export class MissingRequiredClientCapabilityError extends protocolError(
  -32021,
  'Missing required client capability',
  (requiredCapabilities: ClientCapabilities) => ({ requiredCapabilities }),
) {}

/** -32022: the requested protocol version is not one this server speaks. */
export class UnsupportedProtocolVersionError extends protocolError(
  -32022,
  'Unsupported protocol version',
  (supported: readonly string[], requested: unknown) => ({ supported: [...supported], requested }),
) {}

/** -32001: the client did not answer a server→client request (legacy sessions) in time. */
export class ClientRequestTimeoutError extends protocolError(-32001, 'Request timed out') {}

/** -32603: the client answered a server→client request (legacy sessions) with an error; its code and message are in the text. */
export class ClientRequestFailedError extends protocolError(-32603, 'The client answered with an error') {}

/**
 * -31403 (server-defined): a guard or the caller's scopes refused the request. The spec defines no
 * code for it, and B-14 keeps server codes outside -32768…-32000; 403 over HTTP (see the
 * transport's status table), with a `WWW-Authenticate` challenge where OAuth is on.
 * `data.requiredScopes` lists what the target needs when scopes were the reason.
 */
export class ForbiddenError extends protocolError(
  -31403,
  'Forbidden',
  (data?: { requiredScopes?: readonly string[]; missingScopes?: readonly string[]; guard?: string }) => data,
) {}

/**
 * -31429 (server-defined, outside the reserved range as B-14 asks): the caller used up its rate
 * limit. `data.retryAfterMs` says when to retry; HTTP answers 429 with `Retry-After` (seconds).
 */
export class RateLimitedError extends protocolError(-31429, 'Rate limited', (data: { retryAfterMs: number; limit: number; windowMs: number }) => data) {}

// Refinements of a row: the same code, more to say.

/**
 * -32700 for JSON that is refused for what it holds (an own `__proto__` key), not for its syntax.
 * It keeps the message's id, when one could be read, so that the client's request still ends.
 */
export class RefusedMessageError extends ParseError {
  constructor(
    message: string,
    /** The refused message's own id, or `undefined` (a notification, or no usable id). */
    readonly requestId: RequestId | undefined,
  ) {
    super(message);
  }
}

/**
 * -32602 on the modern era: no resource at the URI (`data.uri`). A legacy session reports it as
 * -32002, the code 2025-11-25 and earlier give it (see `era/legacy-errors.ts`).
 */
export class ResourceNotFoundError extends InvalidParamsError {}
