import type { EraCodec, ErrorOrigin } from './codec.js';
import type { RawJson } from '../wire/raw-json.js';
import type { JsonRpcErrorResponse, JsonRpcNotification, RequestId, Result } from '../protocol/types.js';
import { legacyErrorResponse } from './legacy-errors.js';
import { legacyNotification, legacyResult } from './legacy-results.js';
import { legacyErrorStatus } from './legacy-statuses.js';
import { LATEST_LEGACY_PROTOCOL_VERSION } from './versions.js';

/**
 * The legacy codec of one session: results, error codes, HTTP statuses and notifications as the
 * revision it negotiated defines them (see legacy-results.ts, legacy-errors.ts, legacy-statuses.ts).
 * Made once, at `initialize` (a transport's errors outside any session use the latest revision's).
 * It adds nothing to a result and so has nothing to strip: no legacy revision defines `resultType`,
 * cache hints or `serverInfo` in `_meta`.
 */
export class LegacyCodec implements EraCodec {
  constructor(readonly version: string = LATEST_LEGACY_PROTOCOL_VERSION) {}

  result(method: string, result: Result | RawJson): Result | RawJson {
    return legacyResult(method, result, this.version) as Result | RawJson;
  }

  error(id: RequestId | undefined, error: unknown): JsonRpcErrorResponse {
    return legacyErrorResponse(id, error);
  }

  errorStatus(code: number, origin: ErrorOrigin): number {
    return legacyErrorStatus(code, origin);
  }

  notification(notification: JsonRpcNotification): JsonRpcNotification {
    return legacyNotification(notification, this.version);
  }
}
