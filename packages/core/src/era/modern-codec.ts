import { RawJson } from '../wire/raw-json.js';
import { errorResponse } from '../errors/to-json-rpc.js';
import { infoOnlyMeta } from '../wire/result-json.js';
import { META } from '../protocol/meta-keys.js';
import type { CacheHints, Implementation, JsonObject, JsonRpcErrorResponse, JsonRpcNotification, RequestId, Result } from '../protocol/types.js';
import type { EraCodec, ErrorOrigin } from './codec.js';
import { modernErrorStatus } from './modern-statuses.js';

/**
 * The 2026-07-28 codec: it gives every result the keys only this revision defines — `resultType`,
 * the method's cache hints, the server's name in `_meta` (B-10) — and errors their HTTP statuses.
 * One per server, made by `createServer`; list pages are finished by it once, when they are built.
 */
export class ModernCodec implements EraCodec {
  /** `{ serverInfo: info }`, frozen: the `_meta` of a result without its own (see infoOnlyMeta). */
  private readonly resultMeta: JsonObject;

  constructor(private readonly info: Implementation) {
    this.resultMeta = infoOnlyMeta(info);
  }

  result(_method: string, result: Result | RawJson, hints?: CacheHints): Result | RawJson {
    // A pre-serialized page is this era's JSON already (wire/list-page.ts).
    if (result instanceof RawJson) return result;
    return this.finish(result, hints);
  }

  /**
   * `result` with this revision's keys, set in place (no copy per answer): `resultType: 'complete'`
   * unless it says otherwise (MRTR's `input_required`), the hints where a complete result has none of
   * its own, and `_meta` naming the server.
   */
  finish(result: Result, hints: CacheHints | undefined): Result {
    if (result.resultType === undefined) result.resultType = 'complete';
    if (hints !== undefined && result.resultType === 'complete') {
      if (result.ttlMs === undefined) result.ttlMs = hints.ttlMs;
      if (result.cacheScope === undefined) result.cacheScope = hints.cacheScope;
    }
    result._meta = result._meta === undefined ? this.resultMeta : { ...result._meta, [META.serverInfo]: this.info };
    return result;
  }

  error(id: RequestId | undefined, error: unknown): JsonRpcErrorResponse {
    return errorResponse(id, error);
  }

  errorStatus(code: number, origin: ErrorOrigin): number {
    return modernErrorStatus(code, origin);
  }

  notification(notification: JsonRpcNotification): JsonRpcNotification {
    return notification;
  }
}
