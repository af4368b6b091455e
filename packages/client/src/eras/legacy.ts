import type { ClientCapabilities, Implementation, JsonObject, ServerCapabilities } from '@decorum/core';
import { UnsupportedServerError } from '../errors.js';
import type { ServerView } from '../results.js';
import { LEGACY_VERSIONS } from './versions.js';

/**
 * `initialize` params of the legacy era (2025-11-25): the same capabilities in the legacy shape
 * (roots carried `listChanged`, which this client never sends: its roots do not change).
 */
export function initializeParams(capabilities: ClientCapabilities, clientInfo: Implementation): JsonObject {
  const legacy: JsonObject = {};
  if (capabilities.elicitation) legacy.elicitation = capabilities.elicitation;
  if (capabilities.sampling) legacy.sampling = {};
  if (capabilities.roots) legacy.roots = { listChanged: false };
  return { protocolVersion: LEGACY_VERSIONS[0], capabilities: legacy, clientInfo };
}

/** The server as its `InitializeResult` describes it; a version this client does not speak is refused. */
export function viewOfInitialize(result: JsonObject): ServerView {
  const version = result.protocolVersion;
  if (typeof version !== 'string' || !LEGACY_VERSIONS.includes(version)) {
    throw new UnsupportedServerError(
      `The server offered protocol version ${JSON.stringify(version)}; this client speaks 2026-07-28 and ${LEGACY_VERSIONS.join(', ')}`,
    );
  }
  return {
    era: 'legacy',
    protocolVersion: version,
    serverInfo: result.serverInfo as Implementation | undefined,
    capabilities: (result.capabilities ?? {}) as ServerCapabilities,
    instructions: typeof result.instructions === 'string' ? result.instructions : undefined,
  };
}
