import type { EraCodec } from '../era/codec.js';
import type { RawJson } from '../wire/raw-json.js';
import type { JsonRpcErrorResponse, JsonRpcNotification, RequestId, Result } from '../protocol/types.js';
import { legacyErrorResponse } from './legacy-errors.js';
import { legacyNotification, legacyResult } from './legacy-results.js';

/**
 * The legacy codec of one session: results, error codes and notifications as the revision it
 * negotiated defines them (see legacy-results.ts, legacy-errors.ts). Made once, at `initialize`.
 */
export class LegacyCodec implements EraCodec {
  constructor(readonly version: string) {}

  result(method: string, result: Result | RawJson): Result | RawJson {
    return legacyResult(method, result, this.version) as Result | RawJson;
  }

  error(id: RequestId | undefined, error: unknown): JsonRpcErrorResponse {
    return legacyErrorResponse(id, error);
  }

  notification(notification: JsonRpcNotification): JsonRpcNotification {
    return legacyNotification(notification, this.version);
  }
}
