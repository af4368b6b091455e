import type { ClientCapabilities, RequestId } from '../protocol/types.js';

/**
 * Base of every error that has a meaning on the wire. Each subclass is one JSON-RPC error
 * of MCP 2026-07-28; `errors/to-json-rpc.ts` is the one place that turns them into responses.
 */
export abstract class McpProtocolError extends Error {
  /** The JSON-RPC error code. */
  abstract readonly code: number;
  /** Optional `error.data`. */
  readonly data?: unknown;

  constructor(message: string, data?: unknown) {
    super(message);
    this.name = new.target.name;
    if (data !== undefined) this.data = data;
  }
}

/** -32700: the bytes were not JSON. */
export class ParseError extends McpProtocolError {
  readonly code = -32700;
}

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

/** -32600: JSON, but not a single valid JSON-RPC request or notification. */
export class InvalidRequestError extends McpProtocolError {
  readonly code = -32600;
}

/** -32601: unknown method, or one gated by a capability this server does not serve. */
export class MethodNotFoundError extends McpProtocolError {
  readonly code = -32601;
}

/** -32602: the request's params are wrong (missing `_meta`, unknown tool, bad cursor, …). */
export class InvalidParamsError extends McpProtocolError {
  readonly code = -32602;
}

/** -32603: the server failed. The message is generic; details stay in the server log. */
export class InternalError extends McpProtocolError {
  readonly code = -32603;
}

/** -32020: an MCP HTTP header is missing, malformed, or disagrees with the body. */
export class HeaderMismatchError extends McpProtocolError {
  readonly code = -32020;
}

/** -32021: serving the request needs a client capability this request did not declare. */
export class MissingRequiredClientCapabilityError extends McpProtocolError {
  readonly code = -32021;
  constructor(message: string, requiredCapabilities: ClientCapabilities) {
    super(message, { requiredCapabilities });
  }
}

/** -32022: the requested protocol version is not one this server speaks. */
export class UnsupportedProtocolVersionError extends McpProtocolError {
  readonly code = -32022;
  constructor(message: string, supported: readonly string[], requested: unknown) {
    super(message, { supported: [...supported], requested });
  }
}

/**
 * -32602 on the modern era: no resource at the URI (`data.uri`). A legacy session reports it as
 * -32002, the code 2025-11-25 and earlier give it (see `legacy/legacy-errors.ts`).
 */
export class ResourceNotFoundError extends InvalidParamsError {}

/** -32001: the client did not answer a server→client request (legacy sessions) in time. */
export class ClientRequestTimeoutError extends McpProtocolError {
  readonly code = -32001;
}

/** -32603: the client answered a server→client request (legacy sessions) with an error; its code and message are in the text. */
export class ClientRequestFailedError extends McpProtocolError {
  readonly code = -32603;
}

/**
 * -31403 (server-defined): a guard or the caller's scopes refused the request. The spec defines no
 * code for it, and B-14 keeps server codes outside -32768…-32000; 403 over HTTP (see the
 * transport's status table), with a `WWW-Authenticate` challenge where OAuth is on.
 * `data.requiredScopes` lists what the target needs when scopes were the reason.
 */
export class ForbiddenError extends McpProtocolError {
  readonly code = -31403;
  constructor(message: string, data?: { requiredScopes?: readonly string[]; missingScopes?: readonly string[]; guard?: string }) {
    super(message, data);
  }
}

/**
 * -31429 (server-defined, outside the reserved range as B-14 asks): the caller used up its rate
 * limit. `data.retryAfterMs` says when to retry; HTTP answers 429 with `Retry-After` (seconds).
 */
export class RateLimitedError extends McpProtocolError {
  readonly code = -31429;
  declare readonly data: { retryAfterMs: number; limit: number; windowMs: number };
  constructor(message: string, data: { retryAfterMs: number; limit: number; windowMs: number }) {
    super(message, data);
  }
}
