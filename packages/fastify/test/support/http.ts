import { request as httpRequest, type Agent, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { meta, type MetaOverrides } from '@decorum-internal/test-support';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { injectedApp } from './app.js';

/** One finished HTTP exchange. */
export interface HttpResult {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The body parsed as JSON (undefined when empty or not JSON). */
  json: any;
  /** SSE events' data parsed as JSON, when the response was an event stream. */
  events: any[];
}

/** Parses a complete text/event-stream body into its events' JSON data (comment-only blocks carry no event). */
export function parseSse(text: string): any[] {
  return (
    text
      .split('\n\n')
      .map((block) =>
        block
          .split('\n')
          .filter((l) => l.startsWith('data: '))
          .map((l) => l.slice(6)),
      )
      // A priming event (an id and empty data, legacy resumable streams) carries no message.
      .filter((data) => data.length > 0 && data.join('') !== '')
      .map((data) => JSON.parse(data.join('\n')))
  );
}

/** The exchange as a test reads it: the body as text, and parsed as JSON and as SSE when it is. */
function result(status: number, headers: IncomingHttpHeaders, text: string): HttpResult {
  let json: any;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  const isSse = String(headers['content-type'] ?? '').startsWith('text/event-stream');
  return { status, headers, text, json, events: isSse ? parseSse(text) : [] };
}

interface SendOptions {
  method?: string;
  headers?: OutgoingHttpHeaders;
  body?: string | Buffer;
  /** Sockets to reuse (kept-alive connections); by default each request opens its own. */
  agent?: Agent;
}

/**
 * A raw HTTP request, so tests control every header byte: over a socket (node:http, no agent
 * reuse) to an `http://` URL, or through `app.inject()` to the `inject://` URL of an `injectApp`.
 */
export async function send(url: string, options: SendOptions = {}): Promise<HttpResult> {
  const target = new URL(url);
  if (target.protocol === 'inject:') return sendInjected(injectedApp(target.host), `${target.pathname}${target.search}`, options);
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'POST', headers: options.headers, agent: options.agent ?? false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(result(res.statusCode ?? 0, res.headers, Buffer.concat(chunks).toString('utf8'))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** `send` without a socket: the response headers as node:http gives them (strings; repeats joined, but set-cookie). */
async function sendInjected(app: FastifyInstance, path: string, options: SendOptions): Promise<HttpResult> {
  const method = (options.method ?? 'POST') as InjectOptions['method'];
  const res = await app.inject({ method, url: path, headers: options.headers as InjectOptions['headers'], payload: options.body });
  const headers: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined) continue;
    if (name === 'set-cookie') headers[name] = ([] as Array<string | number>).concat(value).map(String);
    else headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return result(res.statusCode, headers, res.body);
}

/** Which body field `Mcp-Name` mirrors, per method. */
const NAME_FIELD: Record<string, string> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };

/** The standard headers a conforming client sends for `body` (values not encoded: plain ASCII only). */
export function standardHeaders(body: { method: string; params?: Record<string, any> }): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': body.method,
  };
  const field = NAME_FIELD[body.method];
  if (field && typeof body.params?.[field] === 'string') headers['mcp-name'] = body.params[field];
  return headers;
}

export interface RpcOptions extends MetaOverrides {
  /** Headers to add or override (`undefined` removes one). */
  headers?: Record<string, string | undefined>;
}

/** Builds a well-formed request body with `_meta`. */
export function body(id: string | number, method: string, params: Record<string, unknown> = {}, overrides: MetaOverrides = {}) {
  return { jsonrpc: '2.0' as const, id, method, params: { ...params, _meta: meta(overrides) } };
}

/** Applies overrides to a header set; an `undefined` value removes the header. */
export function withHeaders(base: Record<string, string>, overrides: Record<string, string | undefined> = {}): Record<string, string> {
  const out: Record<string, string> = { ...base };
  for (const [name, value] of Object.entries(overrides)) {
    for (const key of Object.keys(out)) if (key.toLowerCase() === name.toLowerCase()) delete out[key];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** POSTs one JSON-RPC request with the standard headers (plus overrides). */
export function rpc(url: string, id: string | number, method: string, params: Record<string, unknown> = {}, options: RpcOptions = {}): Promise<HttpResult> {
  const message = body(id, method, params, options);
  return send(url, { headers: withHeaders(standardHeaders(message), options.headers), body: JSON.stringify(message) });
}

/** POSTs an arbitrary body with the standard headers derived from it (when it looks like a request). */
export function postRaw(url: string, raw: string, headers: Record<string, string | undefined> = {}): Promise<HttpResult> {
  const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28' };
  return send(url, { headers: withHeaders(base, headers), body: raw });
}
