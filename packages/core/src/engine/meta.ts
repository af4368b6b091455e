import { InvalidParamsError, UnsupportedProtocolVersionError } from '../errors/protocol-errors.js';
import { META, PROGRESS_TOKEN } from '../protocol/meta-keys.js';
import { LOGGING_LEVELS, type ClientCapabilities, type Implementation, type JsonObject, type LoggingLevel } from '../protocol/types.js';
import type { RequestMeta } from '../era/request-meta.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '../protocol/version.js';
import type { EraCodec } from '../era/codec.js';
import { isJsonObject as isObject } from '../protocol/json-object.js';

/** -32022 unless `version` is one this server speaks. */
export function checkProtocolVersion(version: string): void {
  // The latest is compared first: nearly every request names it (a list search is a builtin call).
  if (version !== LATEST_PROTOCOL_VERSION && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    throw new UnsupportedProtocolVersionError(
      `Unsupported protocol version "${version}"; this server speaks ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}`,
      SUPPORTED_PROTOCOL_VERSIONS,
      version,
    );
  }
}

/**
 * Reads and checks the per-request `_meta` (there is no handshake: every request carries its
 * version and capabilities, and nothing is inferred from earlier requests). The version's
 * support is checked separately, so that HTTP can compare it with its header first. `codec` is
 * the server's modern codec: a request with this `_meta` is answered in 2026-07-28.
 */
export function readRequestMeta(params: JsonObject | undefined, codec: EraCodec): RequestMeta {
  const meta = params?._meta;
  if (!isObject(meta)) {
    throw new InvalidParamsError(`Invalid params: params._meta is required and must carry "${META.protocolVersion}" and "${META.clientCapabilities}"`);
  }
  const version = meta[META.protocolVersion];
  if (typeof version !== 'string') {
    throw new InvalidParamsError(`Invalid params: params._meta["${META.protocolVersion}"] is required (a protocol version string)`);
  }
  const capabilities = meta[META.clientCapabilities];
  if (!isObject(capabilities)) {
    throw new InvalidParamsError(`Invalid params: params._meta["${META.clientCapabilities}"] is required (an object; {} for none)`);
  }
  const out: RequestMeta = { protocolVersion: version, clientCapabilities: capabilities as ClientCapabilities, raw: meta, codec };
  const info = meta[META.clientInfo];
  if (isObject(info) && typeof info.name === 'string') out.clientInfo = info as unknown as Implementation;
  const level = meta[META.logLevel];
  if (level !== undefined) {
    if (!LOGGING_LEVELS.includes(level as LoggingLevel)) {
      throw new InvalidParamsError(`Invalid params: unknown log level ${JSON.stringify(level)}; use one of ${LOGGING_LEVELS.join(', ')}`);
    }
    out.logLevel = level as LoggingLevel;
  }
  const token = meta[PROGRESS_TOKEN];
  if (token !== undefined) {
    if (!(typeof token === 'string' || (typeof token === 'number' && Number.isInteger(token)))) {
      throw new InvalidParamsError('Invalid params: _meta.progressToken must be a string or an integer');
    }
    out.progressToken = token;
  }
  return out;
}
