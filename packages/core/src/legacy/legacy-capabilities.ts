/**
 * The `initialize` exchange per negotiated revision: what the server declares (capabilities and
 * `serverInfo` as that revision's schema defines them), and what the client's declared
 * capabilities mean in it (see revision-features.ts).
 */
import type { ClientCapabilities, Implementation, JsonObject, ServerCapabilities } from '../protocol/types.js';
import { revisionHas } from '../era/revision-features.js';
import type { ServedExtensions } from '../methods/method.js';
import { isJsonObject as isObject } from '../protocol/json-object.js';

/**
 * The server's capabilities as `version` defines them: `extensions` holds only the extensions
 * that exist in the legacy era, and each may add capabilities of its own for `version`
 * (Tasks: `capabilities.tasks` on 2025-11-25).
 */
export function legacyServerCapabilities(capabilities: ServerCapabilities, version: string, extensions?: ServedExtensions): JsonObject {
  const shaped: JsonObject = { ...(capabilities as JsonObject) };
  delete shaped.extensions;
  if (!revisionHas(version, 'completionsCapability')) delete shaped.completions;
  if (!extensions) return shaped;
  const advertised = extensions.advertised(false);
  if (advertised) shaped.extensions = advertised as JsonObject;
  const extra = extensions.legacyCapabilities(version);
  return extra ? { ...shaped, ...extra } : shaped;
}

/** `serverInfo` as `version` defines `Implementation`. */
export function legacyImplementation(info: Implementation, version: string): JsonObject {
  const shaped: JsonObject = { ...(info as unknown as JsonObject) };
  if (!revisionHas(version, 'titles')) delete shaped.title;
  if (!revisionHas(version, 'icons')) delete shaped.icons;
  if (!revisionHas(version, 'implementationDetails')) {
    delete shaped.description;
    delete shaped.websiteUrl;
  }
  return shaped;
}

/**
 * What the client's capabilities mean in `version`, in the terms the asks check: before
 * 2025-06-18 a client cannot take `elicitation/create` at all; before 2025-11-25 elicitation is
 * form only (no `mode`), and sampling has no sub-capabilities: any sampling client took
 * `includeContext`, none took `tools`.
 */
export function legacyClientCapabilities(declared: ClientCapabilities, version: string): ClientCapabilities {
  const capabilities: ClientCapabilities = { ...declared };
  if (!revisionHas(version, 'elicitation')) delete capabilities.elicitation;
  else if (!revisionHas(version, 'elicitationModes') && isObject(capabilities.elicitation)) capabilities.elicitation = { form: {} };
  if (!revisionHas(version, 'samplingSubCapabilities') && isObject(capabilities.sampling)) capabilities.sampling = { context: {} };
  return capabilities;
}
