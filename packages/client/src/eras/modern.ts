import { META, type ClientCapabilities, type Implementation, type JsonObject } from '@decorum/core';
import { InvalidResultError } from '../errors.js';
import type { DiscoverResult, ServerView } from '../results.js';
import { MODERN_VERSION } from './versions.js';

/**
 * The `_meta` every modern request carries (B-15, HC-02): version, capabilities and client
 * info. Built once per client; a request adds only its `progressToken`.
 */
export function modernMeta(capabilities: ClientCapabilities, clientInfo: Implementation): JsonObject {
  return Object.freeze({ [META.protocolVersion]: MODERN_VERSION, [META.clientCapabilities]: capabilities, [META.clientInfo]: clientInfo });
}

/** The server as its `server/discover` result describes it. */
export function viewOfDiscover(result: DiscoverResult): ServerView {
  if (!Array.isArray(result.supportedVersions) || typeof result.capabilities !== 'object' || result.capabilities === null) {
    throw new InvalidResultError('server/discover answered without supportedVersions and capabilities');
  }
  return {
    era: 'modern',
    protocolVersion: MODERN_VERSION,
    serverInfo: result._meta?.[META.serverInfo] as ServerView['serverInfo'],
    capabilities: result.capabilities,
    instructions: result.instructions,
  };
}
