/** The modern revision this client speaks (stateless, `server/discover`). */
export const MODERN_VERSION = '2026-07-28';

/** The legacy revisions it can fall back to through `initialize`, newest first. */
export const LEGACY_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];
