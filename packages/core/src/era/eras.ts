import { DecorumStartupError, StartupErrorCode } from '../errors/startup-error.js';
import { isJsonObject } from '../protocol/json-object.js';
import { META } from '../protocol/meta-keys.js';
import type { JsonRpcRequest } from '../protocol/types.js';

/**
 * Which eras a server serves: `dual` (default) serves 2026-07-28 requests statelessly and opens a
 * legacy (2025-11-25 and earlier) session on `initialize`; `modern` refuses `initialize` with
 * -32022; `legacy` serves initialize-based sessions only.
 */
export type Eras = 'dual' | 'modern' | 'legacy';

const ERAS: readonly Eras[] = ['dual', 'modern', 'legacy'];

/** The `eras` option, checked (start-up error text when wrong). */
export function readEras(value: unknown): Eras {
  if (value === undefined) return 'dual';
  if (ERAS.includes(value as Eras)) return value as Eras;
  throw new DecorumStartupError(StartupErrorCode.INVALID_ERAS, `eras must be one of ${ERAS.join(', ')} (got ${JSON.stringify(value)})`);
}

/** True when a request carries modern per-request `_meta` (legacy requests never do): it is served statelessly. */
export function isModernShaped(request: { params?: JsonRpcRequest['params'] }): boolean {
  const meta = request.params?._meta;
  return isJsonObject(meta) && meta[META.protocolVersion] !== undefined;
}

/** True for the request that opens a legacy session: `initialize` without modern `_meta`. */
export function isLegacyOpening(request: JsonRpcRequest): boolean {
  return request.method === 'initialize' && !isModernShaped(request);
}
