import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '@decorum/core';
import { errorResponse } from '@decorum/core/transport';
import { ProtocolViolationError } from '../errors.js';
import type { TransportEvents } from './transport.js';
import { isJsonObject } from '@decorum/core/transport';

/** A message from the server, sorted by what the client must do with it. */
export type Incoming =
  { kind: 'response'; message: JsonRpcResponse } | { kind: 'request'; message: JsonRpcRequest } | { kind: 'notification'; message: JsonRpcNotification };

const quote = (text: string) => JSON.stringify(text.length > 120 ? `${text.slice(0, 120)}…` : text);

/** Parses and sorts one message's text; anything that is not JSON-RPC is a protocol violation. */
export function readIncoming(text: string): Incoming {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ProtocolViolationError(`The server sent something that is not JSON: ${quote(text)}`);
  }
  if (!isJsonObject(value) || value.jsonrpc !== '2.0') {
    throw new ProtocolViolationError(`The server sent JSON that is not a JSON-RPC 2.0 message: ${quote(text)}`);
  }
  const message: unknown = value;
  if (typeof value.method === 'string') {
    return 'id' in value && value.id !== undefined && value.id !== null
      ? { kind: 'request', message: message as JsonRpcRequest }
      : { kind: 'notification', message: message as JsonRpcNotification };
  }
  if ('result' in value || 'error' in value) return { kind: 'response', message: message as JsonRpcResponse };
  throw new ProtocolViolationError(`The server sent a JSON-RPC message that is neither a request, a notification nor a response: ${quote(text)}`);
}

/** Answers a server's request (legacy era) through the client's handlers; failures become JSON-RPC errors. */
export async function answerServerRequest(events: TransportEvents, request: JsonRpcRequest): Promise<JsonRpcResponse> {
  try {
    const result = (await events.onRequest(request)) as Record<string, unknown>;
    return { jsonrpc: '2.0', id: request.id, result: result as never };
  } catch (error) {
    return errorResponse(request.id, error);
  }
}
