import { send, standardHeaders, type HttpResult } from '../../../packages/fastify/test/support/http.js';
import { meta } from '@decorum-internal/test-support';

/** The `_meta` every request carries, as JSON text to splice into hand-written bodies. */
export const META_JSON = JSON.stringify(meta());

/** A tools/call line written by hand (ids and keys JSON.stringify could not write): `id` and `args` are raw JSON text. */
export function rawToolCall(idJson: string, name: string, argsJson = '{}'): string {
  return `{"jsonrpc":"2.0","id":${idJson},"method":"tools/call","params":{"name":"${name}","arguments":${argsJson},"_meta":${META_JSON}}}`;
}

/** POSTs a raw body with the standard headers of a tools/call of `name`. */
export function postRaw(url: string, name: string, rawBody: string | Buffer, headers: Record<string, string> = {}): Promise<HttpResult> {
  return send(url, { headers: { ...standardHeaders({ method: 'tools/call', params: { name } }), ...headers }, body: rawBody });
}
