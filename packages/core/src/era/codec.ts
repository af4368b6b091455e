import type { RawJson } from '../wire/raw-json.js';
import type { JsonRpcErrorResponse, JsonRpcNotification, RequestId, Result } from '../protocol/types.js';

/**
 * How one revision family finishes what the engine answers: the modern one (2026-07-28) or the
 * legacy one (2025-11-25 and earlier, per negotiated revision). Chosen once — per request from its
 * `_meta`, per session for the legacy era — and carried in the request's meta, so the engine
 * shapes each result, error and notification once, for the revision it goes to.
 */
export interface EraCodec {
  /** The method's result as the revision defines it; a pre-serialized page stays pre-serialized. */
  result(method: string, result: Result | RawJson): Result | RawJson;
  /** A failure as the revision's error response (its codes). */
  error(id: RequestId | undefined, error: unknown): JsonRpcErrorResponse;
  /** A request's notification (progress, log) as the revision defines it. */
  notification(notification: JsonRpcNotification): JsonRpcNotification;
}
