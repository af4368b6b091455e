import { defineMethod } from './method.js';
import type { JsonObject, ServerCapabilities } from '../protocol/types.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../protocol/version.js';
import type { ServingState } from './method.js';

/** Capabilities derived from what is registered: a capability only when it is really served. */
export function serverCapabilities(state: ServingState): ServerCapabilities {
  const capabilities: ServerCapabilities = {};
  const { registry } = state;
  // Every server is live (server.live can change any list at run time), so a served kind always
  // announces list changes, and resources always honour listen's resourceSubscriptions.
  if (registry.hasTools) capabilities.tools = { listChanged: true };
  if (registry.hasResources) capabilities.resources = { subscribe: true, listChanged: true };
  if (registry.hasPrompts) capabilities.prompts = { listChanged: true };
  if (state.live.hasCompleters) capabilities.completions = {};
  // ctx.log forwards to notifications/message whenever a request asks for a log level.
  capabilities.logging = {};
  const extensions = state.extensions?.advertised(true);
  if (extensions) capabilities.extensions = extensions as Record<string, JsonObject>;
  return capabilities;
}

/** `server/discover`: versions, capabilities and instructions; cacheable. */
export const discoverMethod = defineMethod({
  method: 'server/discover',
  served: () => true,
  run(call) {
    const { state } = call;
    call.cacheHints = state.discoverCache;
    return {
      supportedVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
      capabilities: serverCapabilities(state),
      ...(state.instructions ? { instructions: state.instructions } : {}),
    };
  },
});
