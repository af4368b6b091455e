// A hand-driven legacy (2025-11-25) Streamable HTTP client: raw POSTs in a session, and SSE
// streams (a POST's, the standalone GET stream) read as they come, so tests see every byte.
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { until } from '@decorum-internal/test-support';
import { parseSse, send, type HttpResult } from './http.js';

/** The headers a legacy client sends with every POST. */
export const LEGACY_POST_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** `initialize` params of a 2025-11-25 client that handles elicitation. */
export const INIT_PARAMS = { protocolVersion: '2025-11-25', capabilities: { elicitation: {} }, clientInfo: { name: 'legacy-test', version: '1' } };

/** POSTs one JSON-RPC message with the legacy headers (plus `headers`). */
export function legacyPost(url: string, message: object, headers: Record<string, string> = {}): Promise<HttpResult> {
  return send(url, { headers: { ...LEGACY_POST_HEADERS, ...headers }, body: JSON.stringify(message) });
}

/** Opens a session (initialize, then notifications/initialized): its id and the initialize result. */
export async function initializeSession(url: string, params: object = INIT_PARAMS, headers: Record<string, string> = {}): Promise<{ id: string; result: any }> {
  const res = await legacyPost(url, { jsonrpc: '2.0', id: 0, method: 'initialize', params }, headers);
  if (res.status !== 200 || typeof res.headers['mcp-session-id'] !== 'string') throw new Error(`initialize failed: ${res.status} ${res.text}`);
  const id = res.headers['mcp-session-id'];
  await legacyPost(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, { ...headers, 'mcp-session-id': id });
  return { id, result: res.json.result };
}

/** A legacy `tools/call` message (`_meta` only when given: legacy requests need none). */
export function legacyToolCall(id: number | string, name: string, args: object = {}, meta?: object): object {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, ...(meta && { _meta: meta }) } };
}

/** A long-lived SSE response (the GET stream, or a POST's stream), read as it comes. */
export class OpenStream {
  raw = '';
  /** True once the server ended the response. */
  ended = false;

  private constructor(
    readonly res: IncomingMessage,
    private readonly req: ClientRequest,
  ) {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (this.raw += chunk));
    res.on('end', () => (this.ended = true));
    res.on('error', () => (this.ended = true));
  }

  /** Opens a stream: `GET` by default, or a POST with `body`. Resolves once the headers came. */
  static open(url: string, options: { method?: string; headers: Record<string, string>; body?: string }): Promise<OpenStream> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => resolve(new OpenStream(res, req)));
      req.on('error', reject);
      req.end(options.body);
    });
  }

  /** Opens a POST stream in a session. */
  static post(url: string, session: string, message: object, headers: Record<string, string> = {}): Promise<OpenStream> {
    return OpenStream.open(url, { method: 'POST', headers: { ...LEGACY_POST_HEADERS, 'mcp-session-id': session, ...headers }, body: JSON.stringify(message) });
  }

  /** Opens the standalone GET stream of a session (or resumes one, with `last-event-id`). */
  static get(url: string, session: string, headers: Record<string, string> = {}): Promise<OpenStream> {
    return OpenStream.open(url, { headers: { accept: 'text/event-stream', 'mcp-session-id': session, ...headers } });
  }

  /** The messages received so far (priming events carry none). */
  events(): any[] {
    return parseSse(this.raw);
  }

  /** Waits for a message that matches. */
  waitFor(predicate: (event: any) => boolean): Promise<any> {
    return until(
      () => `a matching event; got ${this.raw}`,
      () => this.events().find(predicate),
      5000,
    );
  }

  /** Waits until the server has ended the response. */
  async waitForEnd(): Promise<void> {
    await until('the end of the response', () => this.ended, 5000);
  }

  /** The SSE event ids received so far, in order. */
  eventIds(): string[] {
    return [...this.raw.matchAll(/^id: (\S+)$/gm)].map((m) => m[1]);
  }

  /** The id of the last event that carried a message. */
  lastMessageId(): string | undefined {
    return [...this.raw.matchAll(/^id: (\S+)\ndata: \{/gm)].at(-1)?.[1];
  }

  /** Drops the connection (the client went away). */
  close(): void {
    this.req.destroy();
  }
}
