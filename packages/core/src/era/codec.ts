import type { RawJson } from '../wire/raw-json.js';
import type { CacheHints, JsonRpcErrorResponse, JsonRpcNotification, RequestId, Result } from '../protocol/types.js';

/**
 * Where a JSON-RPC error arose, which its HTTP status may depend on.
 * - `request`: the message itself is unusable — its JSON, envelope, `_meta`, MCP headers or
 *   protocol version. Nothing was routed.
 * - `handler`: the message was well formed and its method known; its target (unknown tool,
 *   missing resource) or its handler failed.
 */
export type ErrorOrigin = 'request' | 'handler';

/**
 * How one revision family finishes what the engine answers: the modern one (2026-07-28) or the
 * legacy one (2025-11-25 and earlier, per negotiated revision). Chosen once — per request from its
 * `_meta`, per session for the legacy era — and carried in the request's meta, so the engine
 * shapes each result, error and notification once, for the revision it goes to. Methods answer
 * what both eras share; only a codec adds what its revision alone defines.
 */
export interface EraCodec {
  /**
   * The method's result as the revision defines it, with the cache hints the method chose (only
   * 2026-07-28 carries them); a pre-serialized page stays pre-serialized.
   */
  result(method: string, result: Result | RawJson, hints?: CacheHints): Result | RawJson;
  /** A failure as the revision's error response (its codes). */
  error(id: RequestId | undefined, error: unknown): JsonRpcErrorResponse;
  /** The HTTP status of an error response with `code`: a number only, the transport writes it. */
  errorStatus(code: number, origin: ErrorOrigin): number;
  /** A request's notification (progress, log) as the revision defines it. */
  notification(notification: JsonRpcNotification): JsonRpcNotification;
}
