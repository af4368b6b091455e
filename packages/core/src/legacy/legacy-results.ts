/**
 * Result shaping for the legacy era. Modern results carry keys 2025-11-25 does not know
 * (`resultType`, `ttlMs`, `cacheScope`, `serverInfo` in `_meta`); legacy tool schemas and
 * `structuredContent` must be objects at the root. Lists are pre-serialized pages, reshaped
 * once per page (and so once per registry version), never per request.
 */
import { RawJson } from '../engine/raw-json.js';
import { META } from '../protocol/meta-keys.js';
import type { JsonObject, Result } from '../protocol/types.js';

function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stripModernKeys(result: JsonObject): void {
  delete result.resultType;
  delete result.ttlMs;
  delete result.cacheScope;
  const meta = result._meta;
  if (isPlainObject(meta)) {
    delete meta[META.serverInfo];
    if (Object.keys(meta).length === 0) delete result._meta;
  }
}

/** A tool as a legacy client sees it: an output schema must describe an object, else it is left out. */
function legacyTool(tool: JsonObject): JsonObject {
  const output = tool.outputSchema;
  if (output !== undefined && !(isPlainObject(output) && output.type === 'object')) delete tool.outputSchema;
  return tool;
}

const legacyPages = new WeakMap<RawJson, RawJson>();

function legacyPage(page: RawJson): RawJson {
  let shaped = legacyPages.get(page);
  if (!shaped) {
    const result = JSON.parse(page.json) as JsonObject;
    stripModernKeys(result);
    if (Array.isArray(result.tools)) result.tools = (result.tools as JsonObject[]).map(legacyTool);
    shaped = new RawJson(JSON.stringify(result));
    legacyPages.set(page, shaped);
  }
  return shaped;
}

/** Reshapes a modern result (the engine's answer) for a legacy session, in place where it can. */
export function legacyResult(result: Result | RawJson): JsonObject | RawJson {
  if (result instanceof RawJson) return legacyPage(result);
  stripModernKeys(result);
  // Legacy structuredContent is an object; a tool whose output is not one keeps its text block.
  if ('structuredContent' in result && !isPlainObject(result.structuredContent)) delete result.structuredContent;
  return result;
}
