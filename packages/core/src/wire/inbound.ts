import { InvalidParamsError, type McpProtocolError } from '../errors/protocol-errors.js';
import { isLegacyOpening, isModernShaped, type Eras } from '../era/eras.js';
import { LEGACY_PROTOCOL_VERSIONS } from '../era/versions.js';
import { META } from '../protocol/meta-keys.js';
import type { JsonRpcRequest } from '../protocol/types.js';
import { LATEST_PROTOCOL_VERSION } from '../protocol/version.js';
import { isJsonObject } from '../protocol/json-object.js';

/**
 * Which era one inbound message belongs to: a 2026-07-28 request (served statelessly), a message
 * of a legacy session (or the `initialize` that opens one), or a request of neither era, refused
 * with the error that says what each era's client must send.
 */
export type Inbound = { readonly era: 'modern' } | { readonly era: 'legacy' } | { readonly era: 'refused'; readonly error: McpProtocolError };

const MODERN: Inbound = Object.freeze({ era: 'modern' });
const LEGACY: Inbound = Object.freeze({ era: 'legacy' });

/** True when a `MCP-Protocol-Version` value names a revision that is not a legacy one (2026-07-28, or a later one this server may not know). */
export function namesModernVersion(version: string | undefined): boolean {
  return version !== undefined && (version === LATEST_PROTOCOL_VERSION || !LEGACY_PROTOCOL_VERSIONS.includes(version));
}

/**
 * The era of a message by its headers alone, before its body is parsed: `modern` for a message
 * outside any session that names a modern `MCP-Protocol-Version` (nearly every modern HTTP request,
 * which is then parsed once, by the modern endpoint); `undefined` when the body decides.
 */
export function classifyByHeaders(eras: Eras, inSession: boolean, versionHeader: string | undefined): Inbound | undefined {
  if (eras === 'modern' || (eras === 'dual' && !inSession && namesModernVersion(versionHeader))) return MODERN;
  return undefined;
}

/**
 * The inbound classifier both transports call. `message` is the parsed message, or the error its
 * parsing threw; `inSession` says it comes within a legacy session (HTTP: an `Mcp-Session-Id`;
 * stdio: the process's session is open); `versionHeader` is HTTP's `MCP-Protocol-Version`.
 * Modern `_meta` wins over a stale session (DIGEST V-07); anything else in a session, or naming a
 * legacy revision, is the session's; outside one only `initialize` opens the legacy era.
 */
export function classifyInbound(eras: Eras, message: unknown, inSession: boolean, versionHeader?: string): Inbound {
  return classifyByHeaders(eras, inSession, versionHeader) ?? classifyByBody(eras, message, inSession, versionHeader);
}

/** The era of a message whose headers left it open ({@link classifyByHeaders} gave `undefined`): its body decides. */
export function classifyByBody(eras: Eras, message: unknown, inSession: boolean, versionHeader?: string): Inbound {
  if (eras === 'legacy') return LEGACY;
  // Unparsed, or not an object: the session reports it; outside one, the modern rules do.
  if (!isJsonObject(message) || message instanceof Error) return inSession ? LEGACY : MODERN;
  const rpc = message as unknown as JsonRpcRequest;
  if (typeof rpc.method === 'string' && isModernShaped(rpc)) return MODERN;
  if (inSession || versionHeader !== undefined) return LEGACY;
  if (typeof rpc.method !== 'string') return MODERN;
  if (isLegacyOpening(rpc)) return LEGACY;
  // A request neither with modern `_meta` nor in a session: either era's client got it wrong.
  return 'id' in rpc ? { era: 'refused', error: neitherEra(rpc.method) } : MODERN;
}

/** A dual-era request that is neither a 2026-07-28 request nor part of a legacy session. */
function neitherEra(method: string): InvalidParamsError {
  return new InvalidParamsError(
    `Invalid params: ${method} has no params._meta["${META.protocolVersion}"]. A 2026-07-28 request carries _meta["${META.protocolVersion}"] and _meta["${META.clientCapabilities}"]; a 2025-11-25 (or earlier) client must open the session with initialize first`,
  );
}
