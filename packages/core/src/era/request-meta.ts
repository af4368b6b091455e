import type { ClientCapabilities, Implementation, JsonObject, LoggingLevel } from '../protocol/types.js';
import type { EraCodec } from './codec.js';

/**
 * What a request says about itself, as its era reads it: a 2026-07-28 request's `params._meta`
 * (engine/meta.ts), or a legacy session's negotiated state with the request's own `_meta`.
 */
export interface RequestMeta {
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo?: Implementation;
  logLevel?: LoggingLevel;
  progressToken?: string | number;
  /** The whole `_meta` object, as sent. */
  raw: JsonObject;
  /** How the answer is shaped: the modern codec, or the legacy session's (chosen once, carried here). */
  codec: EraCodec;
}
