import { RawJson } from '../wire/raw-json.js';
import { errorResponse } from '../errors/to-json-rpc.js';
import { META } from '../protocol/meta-keys.js';
import type { Implementation, JsonObject, JsonRpcErrorResponse, JsonRpcNotification, RequestId, Result } from '../protocol/types.js';
import type { EraCodec } from './codec.js';

/** The 2026-07-28 codec: every result's `_meta` names the server (B-10); errors and notifications as they are. */
export class ModernCodec implements EraCodec {
  constructor(
    private readonly info: Implementation,
    /** `{ serverInfo: info }`, frozen: the `_meta` of a result without its own. */
    private readonly resultMeta: JsonObject,
  ) {}

  result(_method: string, result: Result | RawJson): Result | RawJson {
    // Pre-serialized pages carry the server's `_meta` already (registry/list-pages.ts).
    if (result instanceof RawJson) return result;
    result._meta = result._meta === undefined ? this.resultMeta : { ...result._meta, [META.serverInfo]: this.info };
    return result;
  }

  error(id: RequestId | undefined, error: unknown): JsonRpcErrorResponse {
    return errorResponse(id, error);
  }

  notification(notification: JsonRpcNotification): JsonRpcNotification {
    return notification;
  }
}
