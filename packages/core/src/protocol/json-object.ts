import type { JsonObject } from './types.js';

/** True for a JSON object: not `null`, not an array (what a JSON-RPC message, `params` or `_meta` must be). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
