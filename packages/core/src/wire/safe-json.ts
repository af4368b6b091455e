import { errorResponse } from '../errors/to-json-rpc.js';
import type { JsonRpcNotification } from '../protocol/types.js';
import { encodeMessage, encodeMessageBody, encodeMessageBytes, type AnswerBody, type EngineResponse } from './raw-json.js';

/** Told about a message JSON could not hold, so the transport can log it (its details never leave). */
export type UnserializableListener = (error: unknown, message: EngineResponse | JsonRpcNotification) => void;

/**
 * Serializes one outgoing message; when JSON cannot hold it (a `BigInt`, a cycle in a handler's
 * result) an answer becomes a -32603 error for the same id — every request still gets its answer,
 * and a stream that ends with it still ends — and a notification is dropped (`undefined`).
 * The `try` costs nothing on the common path.
 */
export function encodeSafely(message: EngineResponse, onError: UnserializableListener): string;
export function encodeSafely(message: EngineResponse | JsonRpcNotification, onError: UnserializableListener): string | undefined;
export function encodeSafely(message: EngineResponse | JsonRpcNotification, onError: UnserializableListener): string | undefined {
  try {
    return encodeMessage(message);
  } catch (error) {
    onError(error, message);
    return 'method' in message ? undefined : encodeMessage(errorResponse(message.id, error));
  }
}

/** {@link encodeSafely} for an answer written as UTF-8 bytes (an HTTP JSON body). */
export function encodeSafelyBytes(message: EngineResponse, onError: UnserializableListener): Buffer {
  try {
    return encodeMessageBytes(message);
  } catch (error) {
    onError(error, message);
    return encodeMessageBytes(errorResponse(message.id, error));
  }
}

/**
 * {@link encodeSafely} for the body of an HTTP JSON answer (text, or bytes where they are made
 * anyway; with `piecesFrom`, a large page or long text in pieces: see `encodeMessageBody`).
 */
export function encodeSafelyBody(message: EngineResponse, onError: UnserializableListener): string | Buffer;
export function encodeSafelyBody(message: EngineResponse, onError: UnserializableListener, piecesFrom: number): AnswerBody;
export function encodeSafelyBody(message: EngineResponse, onError: UnserializableListener, piecesFrom = Infinity): AnswerBody {
  try {
    return encodeMessageBody(message, piecesFrom);
  } catch (error) {
    onError(error, message);
    return encodeMessage(errorResponse(message.id, error));
  }
}
