import { HeaderMismatchError, McpProtocolError, MissingRequiredClientCapabilityError, UnsupportedProtocolVersionError } from '@decorum/core';
import { HttpStatusError, RequestTimeoutError, UnsupportedServerError } from '../errors.js';
import type { DiscoverResult, ServerView } from '../results.js';
import { viewOfDiscover } from './modern.js';
import { LEGACY_VERSIONS, MODERN_VERSION } from './versions.js';

/** Which era to speak: probe (modern first, then legacy), or only one. */
export type EraChoice = 'auto' | 'modern' | 'legacy';

/** The two openings the negotiation can try. */
export interface Openings {
  /** A modern `server/discover` (with the short probe timeout). */
  discover(): Promise<DiscoverResult>;
  /** The legacy handshake: `initialize`, then `notifications/initialized`. */
  initialize(): Promise<ServerView>;
}

const speaksLegacy = (versions: readonly unknown[]) => versions.some((v) => LEGACY_VERSIONS.includes(v as string));

/**
 * Era detection (HC-07, S-10): `server/discover` first. A `DiscoverResult` naming 2026-07-28
 * means modern. A recognized modern error means a modern server that refused us (surfaced, no
 * fallback) — except -32022 whose `supported` names a legacy version. Anything else that a
 * legacy-only server would answer (-32601, another JSON-RPC error, an HTTP 4xx without one, or
 * no answer within the probe timeout) falls back to `initialize`. Transport failures (the
 * process died, bad bytes, 401) are not era questions and are thrown as they are.
 */
export async function negotiate(choice: EraChoice, openings: Openings): Promise<ServerView> {
  if (choice === 'legacy') return openings.initialize();
  let discovered: DiscoverResult;
  try {
    discovered = await openings.discover().catch((error: unknown) => {
      // A -32022 that lists the version we sent (a server that rejected one request, e.g. behind a
      // rolling deploy) is answered by asking again with it, once (SEP-2575: retry with a supported version).
      if (error instanceof UnsupportedProtocolVersionError && supportedOf(error).includes(MODERN_VERSION)) return openings.discover();
      throw error;
    });
  } catch (error) {
    if (choice === 'modern' || !fallsBack(error)) throw error;
    return openings.initialize();
  }
  const view = viewOfDiscover(discovered);
  if (discovered.supportedVersions.includes(MODERN_VERSION)) return view;
  if (choice === 'auto' && speaksLegacy(discovered.supportedVersions)) return openings.initialize();
  throw new UnsupportedServerError(
    `The server speaks ${discovered.supportedVersions.join(', ') || 'no version'}; this client speaks ${MODERN_VERSION} and ${LEGACY_VERSIONS.join(', ')}`,
  );
}

const supportedOf = (error: UnsupportedProtocolVersionError): unknown[] => (error.data as { supported?: unknown[] } | undefined)?.supported ?? [];

function fallsBack(error: unknown): boolean {
  if (error instanceof UnsupportedProtocolVersionError) {
    const supported = supportedOf(error);
    if (speaksLegacy(supported)) return true;
    throw new UnsupportedServerError(
      `The server speaks ${supported.join(', ') || 'an unknown version'}; this client speaks ${MODERN_VERSION} and ${LEGACY_VERSIONS.join(', ')}`,
    );
  }
  if (error instanceof HeaderMismatchError || error instanceof MissingRequiredClientCapabilityError) return false;
  if (error instanceof McpProtocolError || error instanceof RequestTimeoutError) return true;
  return error instanceof HttpStatusError && error.status >= 400 && error.status < 500;
}
