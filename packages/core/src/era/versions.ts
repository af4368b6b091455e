/**
 * The initialize-based revisions a Decorum server also speaks (the legacy era), newest first:
 * 2025-11-25 and the older ones the official SDKs still negotiate.
 */
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = Object.freeze(['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']);

/** The latest legacy revision: the counter-offer to a client that asked for one this server lacks. */
export const LATEST_LEGACY_PROTOCOL_VERSION = LEGACY_PROTOCOL_VERSIONS[0];

/** Version negotiation of `initialize`: the client's version when it is served, else the latest legacy one. */
export function negotiateLegacyVersion(requested: string): string {
  return LEGACY_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_LEGACY_PROTOCOL_VERSION;
}

/** True when `a` is the same revision as `b` or a later one (dates compare as strings). */
export function isAtLeast(version: string, than: string): boolean {
  return version >= than;
}
