import type { JsonObject, JsonRpcErrorObject } from '../../protocol/types.js';
import { isRequestId } from '../../protocol/request-id.js';
import { isJsonObject as isObject } from '../../protocol/json-object.js';

/**
 * A client's response to one of a legacy session's requests, read as JSON-RPC 2.0 (§5) and MCP
 * define one: exactly one of `result` (an object, as every MCP result is) and `error` (an object
 * with an integer `code` and a string `message`), and an id that is a string, an integer, or
 * `null` beside an error. Anything else is malformed, with the reason in `problem`.
 */
export type ClientAnswer =
  | { readonly ok: true; readonly result: JsonObject }
  | { readonly ok: true; readonly error: JsonRpcErrorObject }
  | { readonly ok: false; readonly problem: string };

function isErrorObject(value: unknown): value is JsonRpcErrorObject {
  return isObject(value) && Number.isInteger(value.code) && typeof value.message === 'string';
}

/** Reads a response from the client (its envelope says it is one: an `id`, and `result` or `error`). */
export function readClientAnswer(response: { id?: unknown; result?: unknown; error?: unknown }): ClientAnswer {
  const { id } = response;
  const hasResult = 'result' in response;
  const hasError = 'error' in response;
  if (hasResult && hasError) return { ok: false, problem: 'it has both "result" and "error" (a response has exactly one of them, even "error": null is one)' };
  if (hasError) {
    if (!isErrorObject(response.error)) return { ok: false, problem: '"error" must be an object with an integer "code" and a string "message"' };
    if (id !== null && !isRequestId(id)) return { ok: false, problem: '"id" must be a string, an integer or null' };
    return { ok: true, error: response.error };
  }
  if (!isRequestId(id)) return { ok: false, problem: '"id" must be a string or an integer' };
  if (!isObject(response.result)) return { ok: false, problem: '"result" must be an object (every MCP result is one)' };
  return { ok: true, result: response.result };
}
