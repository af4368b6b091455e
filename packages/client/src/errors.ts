import {
  HeaderMismatchError,
  InternalError,
  InvalidParamsError,
  InvalidRequestError,
  McpProtocolError,
  MethodNotFoundError,
  MissingRequiredClientCapabilityError,
  ParseError,
  UnsupportedProtocolVersionError,
  type JsonRpcErrorObject,
} from '@decorum/core';
import type { AskLimitName } from './ask-limit-options.js';

/**
 * Errors of the client itself (timeouts, dead servers, bad bytes, refusals), as opposed to the
 * JSON-RPC errors a server answered with, which are {@link McpProtocolError}s (B-14: local errors
 * must be distinguishable from the peer's). Each has a stable `code`, never reused.
 */
export abstract class McpClientError extends Error {
  abstract readonly code: `DECORUM_ERR_${string}`;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The request got no answer within its timeout. */
export class RequestTimeoutError extends McpClientError {
  readonly code = 'DECORUM_ERR_REQUEST_TIMEOUT';
  constructor(
    readonly method: string,
    readonly timeoutMs: number,
  ) {
    super(`The server did not answer ${method} within ${timeoutMs} ms`);
  }
}

/** The caller aborted the request (its signal fired). */
export class RequestCancelledError extends McpClientError {
  readonly code = 'DECORUM_ERR_REQUEST_CANCELLED';
  constructor(
    readonly method: string,
    reason?: unknown,
  ) {
    super(`${method} was cancelled${reason instanceof Error ? `: ${reason.message}` : typeof reason === 'string' ? `: ${reason}` : ''}`);
  }
}

/** A task the call ran as ended `cancelled` (cancelled by someone else, or by the server). */
export class TaskCancelledError extends RequestCancelledError {
  constructor(
    readonly taskId: string,
    statusMessage?: string,
  ) {
    super('tools/call', `its task ${taskId} was cancelled${statusMessage ? ` (${statusMessage})` : ''}`);
  }
}

/** The connection is gone: the server process exited, or the client was closed. */
export class ConnectionClosedError extends McpClientError {
  readonly code = 'DECORUM_ERR_CONNECTION_CLOSED';
}

/** The server broke the protocol: a line that is not JSON-RPC, an answer to an id never sent, … */
export class ProtocolViolationError extends McpClientError {
  readonly code = 'DECORUM_ERR_PROTOCOL_VIOLATION';
}

/** A message from the server exceeded the client's size limit. */
export class MessageTooLargeError extends McpClientError {
  readonly code = 'DECORUM_ERR_MESSAGE_TOO_LARGE';
  constructor(readonly limitBytes: number) {
    super(`The server sent a message larger than the client's limit of ${limitBytes} bytes (maxMessageBytes); it was discarded`);
  }
}

/** An HTTP answer that is neither a JSON-RPC message nor an authorization challenge. */
export class HttpStatusError extends McpClientError {
  readonly code = 'DECORUM_ERR_HTTP_STATUS';
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`The server answered HTTP ${status}${body ? `: ${body.slice(0, 200)}` : ''}`);
  }
}

/** The endpoint redirected to another origin: not followed, so that the connection's headers and messages go nowhere else. */
export class CrossOriginRedirectError extends McpClientError {
  readonly code = 'DECORUM_ERR_CROSS_ORIGIN_REDIRECT';
  constructor(
    readonly from: string,
    readonly location: string,
  ) {
    super(
      `${from} redirected to ${location}, another origin; not followed, since this connection's headers and messages would go there: connect to that URL if you trust it`,
    );
  }
}

/** The endpoint kept redirecting within its origin past the client's limit (20 hops): a loop, not followed further. */
export class TooManyRedirectsError extends McpClientError {
  readonly code = 'DECORUM_ERR_TOO_MANY_REDIRECTS';
  constructor(
    readonly url: string,
    readonly limit: number,
  ) {
    super(`${url} redirected more than ${limit} times; not followed further (a redirect loop?)`);
  }
}

/**
 * HTTP 404 to a request of a legacy session (2025-11-25 §Session Management): the server ended
 * the session (it expired, was deleted, or the server restarted). The client opens a new session
 * and sends the request again, so callers see this error only when that is turned off
 * (`renewSession: false`: the client is closed with it; connect again) or a request meets the
 * 404 twice.
 */
export class SessionExpiredError extends McpClientError {
  readonly code = 'DECORUM_ERR_SESSION_EXPIRED';
  constructor() {
    super('The server no longer knows this session (HTTP 404: it ended or expired); connect again to open a new one');
  }
}

/** A parsed `WWW-Authenticate: Bearer …` challenge (RFC 6750, MCP §14). */
export interface BearerChallenge {
  readonly error?: string;
  readonly scopes?: readonly string[];
  readonly resourceMetadata?: string;
  readonly description?: string;
}

/** HTTP 401: no token, or the token was refused. `challenge` says where to get one. */
export class UnauthorizedError extends McpClientError {
  readonly code = 'DECORUM_ERR_UNAUTHORIZED';
  constructor(readonly challenge: BearerChallenge) {
    super(
      `The server needs authorization (HTTP 401${challenge.error ? `, ${challenge.error}` : ''})${challenge.resourceMetadata ? `; metadata at ${challenge.resourceMetadata}` : ''}`,
    );
  }
}

/** HTTP 403: the token lacks a scope (or the Origin was refused). */
export class ForbiddenError extends McpClientError {
  readonly code = 'DECORUM_ERR_FORBIDDEN';
  constructor(readonly challenge: BearerChallenge | undefined) {
    super(`The server refused the request (HTTP 403${challenge?.scopes ? `; it needs scope ${challenge.scopes.join(' ')}` : ''})`);
  }
}

/** Neither era could be agreed with the server. */
export class UnsupportedServerError extends McpClientError {
  readonly code = 'DECORUM_ERR_UNSUPPORTED_SERVER';
}

/** The server asked for input (MRTR or a legacy request) this client has no handler for. */
export class MissingInputHandlerError extends McpClientError {
  readonly code = 'DECORUM_ERR_MISSING_INPUT_HANDLER';
  constructor(readonly method: string) {
    super(`The server asked for ${method}, but the client has no handler for it (give McpClient an ${method.split('/')[0]} handler)`);
  }
}

/** The server kept answering `input_required` past the round limit. */
export class InputRoundsExceededError extends McpClientError {
  readonly code = 'DECORUM_ERR_INPUT_ROUNDS_EXCEEDED';
  constructor(
    readonly method: string,
    readonly rounds: number,
  ) {
    super(`${method} still needed input after ${rounds} rounds (maxInputRounds); giving up`);
  }
}

/**
 * A server asked past one of the client's ask limits (the client's `AskLimits` options): `limit` names the
 * option, `max` its value. A modern call fails with it; a legacy server's request is refused
 * with JSON-RPC error -31429 carrying the same message.
 */
export class AskLimitError extends McpClientError {
  readonly code = 'DECORUM_ERR_ASK_LIMIT';
  constructor(
    readonly limit: AskLimitName,
    readonly max: number,
    /** What was asked: a legacy request's method, or the inputs of a modern request. */
    readonly asked: string,
  ) {
    super(`The server asked for ${asked} past the client's limit ${limit} (${max}); refused before any handler ran (raise ${limit} for a server you trust)`);
  }
}

/**
 * A server asked for something the client did not declare or does not take (an elicitation mode
 * it did not declare, a URL that is not http(s)). A modern call fails with it; a legacy server's
 * request is refused with -32602, the code 2025-11-25 gives an undeclared elicitation mode.
 */
export class AskRefusedError extends McpClientError {
  readonly code = 'DECORUM_ERR_ASK_REFUSED';
  constructor(
    readonly method: string,
    reason: string,
  ) {
    super(`The server asked for ${method} with ${reason}; the ask was refused and no handler ran`);
  }
}

/** The subscription ended (closed by the caller, or ended by the server) before the server acknowledged it. */
export class SubscriptionEndedError extends McpClientError {
  readonly code = 'DECORUM_ERR_SUBSCRIPTION_ENDED';
  constructor() {
    super('The subscription ended before it was acknowledged');
  }
}

/** A result that is not what the method promises (unknown `resultType`, missing fields). */
export class InvalidResultError extends McpClientError {
  readonly code = 'DECORUM_ERR_INVALID_RESULT';
}

/** The host refused a call: `approve` said no (or no `approve` hook was given). Never sent. */
export class CallRefusedError extends McpClientError {
  readonly code = 'DECORUM_ERR_CALL_REFUSED';
  constructor(
    readonly tool: string,
    reason?: string,
  ) {
    super(`The call to ${tool} was not approved${reason ? `: ${reason}` : ''}; it was not sent to the server`);
  }
}

/** A host name (server or namespaced primitive) that routes nowhere. */
export class UnknownTargetError extends McpClientError {
  readonly code = 'DECORUM_ERR_UNKNOWN_TARGET';
}

/** A bad argument to the client or host API itself (a server name with `_`, …). */
export class ClientUsageError extends McpClientError {
  readonly code = 'DECORUM_ERR_CLIENT_USAGE';
}

/** Legacy (2025-11-25) resource-not-found; modern servers use -32602 instead (HC-08). */
export class ResourceNotFoundError extends McpProtocolError {
  readonly code = -32002;
}

/** A JSON-RPC error whose code the protocol does not define (application-defined). */
export class ServerError extends McpProtocolError {
  constructor(
    readonly code: number,
    message: string,
    data?: unknown,
  ) {
    super(message, data);
  }
}

type Make = (message: string, data: unknown) => McpProtocolError;
const record = (data: unknown): Record<string, unknown> => (typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {});

// The one table from JSON-RPC error codes to the typed errors the client throws.
const BY_CODE = new Map<number, Make>([
  [-32700, (m, d) => new ParseError(m, d)],
  [-32600, (m, d) => new InvalidRequestError(m, d)],
  [-32601, (m, d) => new MethodNotFoundError(m, d)],
  [-32602, (m, d) => new InvalidParamsError(m, d)],
  [-32603, (m, d) => new InternalError(m, d)],
  [-32002, (m, d) => new ResourceNotFoundError(m, d)],
  [-32020, (m, d) => new HeaderMismatchError(m, d)],
  [-32021, (m, d) => new MissingRequiredClientCapabilityError(m, (record(d).requiredCapabilities ?? {}) as never)],
  [-32022, (m, d) => new UnsupportedProtocolVersionError(m, Array.isArray(record(d).supported) ? (record(d).supported as string[]) : [], record(d).requested)],
]);

/** The typed error for a JSON-RPC error object a server answered with. */
export function peerError(error: JsonRpcErrorObject): McpProtocolError {
  const message = typeof error.message === 'string' ? error.message : 'Server error';
  const make = BY_CODE.get(error.code);
  return make ? make(message, error.data) : new ServerError(error.code, message, error.data);
}

/** -31429, the code the house gives "too many" (the server side's rate limit): a legacy server's request refused by an ask limit. */
export const ASK_LIMIT_CODE = -31429;

/**
 * What a legacy server is answered when the client refuses its request: the typed errors of a
 * refused ask become JSON-RPC errors that keep their message; anything else is left as it is.
 */
export function askRefusalOnWire(error: unknown): unknown {
  if (error instanceof AskRefusedError) return new InvalidParamsError(error.message);
  if (error instanceof AskLimitError) return new ServerError(ASK_LIMIT_CODE, error.message, { limit: error.limit, max: error.max });
  return error;
}
