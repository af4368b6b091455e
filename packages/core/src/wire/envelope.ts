import { InvalidRequestError } from '../errors/protocol-errors.js';
import type { JsonRpcNotification, JsonRpcRequest, RequestId } from '../protocol/types.js';
import { isRequestId } from '../protocol/request-id.js';
import { isJsonObject as isPlainObject } from '../protocol/json-object.js';

/** What one incoming message turned out to be. */
export type Envelope =
  | { kind: 'request'; request: JsonRpcRequest }
  | { kind: 'notification'; notification: JsonRpcNotification }
  /** A response object: clients must not send them; transports log and drop (stdio) or refuse (HTTP). */
  | { kind: 'response' };

export { mayHoldProtoKey, parseJson } from './parse-json.js';

/**
 * Checks the JSON-RPC 2.0 envelope of one message. MCP allows exactly one message per line or
 * body (no batches) and ids that are strings or integers, never null.
 */
export function readEnvelope(message: unknown): Envelope {
  if (Array.isArray(message)) {
    throw new InvalidRequestError('Invalid Request: batches are not supported; send one JSON-RPC message at a time');
  }
  if (!isPlainObject(message)) throw new InvalidRequestError('Invalid Request: a JSON-RPC message must be an object');
  if (message.jsonrpc !== '2.0') throw new InvalidRequestError('Invalid Request: "jsonrpc" must be "2.0"');
  const hasId = Object.prototype.hasOwnProperty.call(message, 'id');
  if (!('method' in message) && hasId && ('result' in message || 'error' in message)) return { kind: 'response' };
  if (typeof message.method !== 'string' || message.method === '') {
    throw new InvalidRequestError('Invalid Request: "method" must be a non-empty string');
  }
  if (message.params !== undefined && !isPlainObject(message.params)) {
    throw new InvalidRequestError('Invalid Request: "params" must be an object when present');
  }
  if (!hasId) return { kind: 'notification', notification: message as unknown as JsonRpcNotification };
  if (!isRequestId(message.id)) {
    throw new InvalidRequestError('Invalid Request: "id" must be a string or an integer (never null)');
  }
  return { kind: 'request', request: message as unknown as JsonRpcRequest };
}

/** The id of a message that failed later checks, when it has a usable one. */
export function readableId(message: unknown): RequestId | undefined {
  if (!isPlainObject(message)) return undefined;
  return isRequestId(message.id) ? message.id : undefined;
}

/**
 * True for a message that failed the envelope checks but is a notification by its shape (an object
 * with a `method` and no `id`): a notification is never answered, even when it is malformed
 * (`params: null`); the transport logs it instead.
 */
export function isNotificationShaped(message: unknown): boolean {
  return isPlainObject(message) && typeof message.method === 'string' && !Object.prototype.hasOwnProperty.call(message, 'id');
}
