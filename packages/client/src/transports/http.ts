import { createHash } from 'node:crypto';
import type { JsonObject, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse, ToolDefinition } from '@decorum/core';
import {
  ConnectionClosedError,
  ForbiddenError,
  HttpStatusError,
  McpClientError,
  ProtocolViolationError,
  RequestCancelledError,
  SessionExpiredError,
  UnauthorizedError,
  type BearerChallenge,
} from '../errors.js';
import { childController } from '../abort.js';
import { parseBearerChallenge } from './bearer-challenge.js';
import { readBodyText, readEventStream, type StreamCursor } from './body-reader.js';
import { encodeHeaderValue } from './header-value.js';
import { cancelledNotification } from './cancellation.js';
import { answerServerRequest, readIncoming } from './incoming.js';
import { retryWait, SessionStream, type SessionStreamState } from './session-stream.js';
import { sameOriginFetch } from './same-origin-fetch.js';
import { DEFAULT_MAX_MESSAGE_BYTES, type StreamLimits } from './stdio.js';
import { ToolHeaders } from './tool-headers.js';
import type { ClientTransport, EraInfo, Exchange, TransportEvents } from './transport.js';

/**
 * Supplies the bearer token for each request. Called again with the challenge after a 401:
 * return a new token to retry once, or the same (or none) to give up with {@link UnauthorizedError}.
 */
export type BearerTokenProvider = (context: { challenge?: BearerChallenge }) => string | undefined | Promise<string | undefined>;

/** A server behind a Streamable HTTP endpoint. */
export interface HttpTarget {
  url: string | URL;
  /** Sent on every request (e.g. a static `Authorization`). */
  headers?: Record<string, string>;
  /** The bearer token, per request (A-06: always in the `Authorization` header). */
  token?: BearerTokenProvider;
  /** Another `fetch` (default: the global one). It is called with `redirect: 'manual'`: the transport follows redirects itself, within the endpoint's origin only. */
  fetch?: typeof fetch;
}

/** A request's own controller, and how to unhook it from the caller's signal. */
type Link = ReturnType<typeof childController>;

/** How many times one request's stream is resumed (legacy GET + Last-Event-ID) before giving up. */
const MAX_RESUMPTIONS = 3;
/** The method's `Mcp-Name` source (H-15). */
const NAME_PARAM: Record<string, string> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  // The Tasks extension's methods (2026-07-28) route by the task.
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/**
 * Streamable HTTP (§5): one POST per message, answers as JSON or as an SSE stream scoped to the
 * request. Modern requests carry `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` (base64 when
 * unsafe) and the `Mcp-Param-*` headers mirrored from the tool's `x-mcp-header` annotations;
 * aborting a request closes its stream (H-13). Legacy sessions carry `Mcp-Session-Id` instead,
 * an abort there also sends `notifications/cancelled`, their server→client requests are
 * answered with a POST, and the session's GET stream is kept open: reopened after a drop, until
 * the server says it has none (405) or the session is gone (404; see {@link sessionStreamState}).
 */
export class HttpTransport implements ClientTransport {
  readonly kind = 'http';
  private readonly url: URL;
  private readonly fetch: typeof fetch;
  private readonly maxBytes: number;
  private readonly tools: ToolHeaders;
  private readonly warn: (message: string) => void;
  private events!: TransportEvents;
  private era: EraInfo | undefined;
  private sessionId: string | undefined;
  private lastToken: string | undefined;
  private readonly open = new Set<AbortController>();
  /** Each response's controller, and how to unhook it from the caller's signal once the response is read. */
  private readonly streams = new WeakMap<Response, Link>();
  private closed = false;
  private sessionStream: SessionStream | undefined;
  /** The session whose GET stream {@link sessionStream} is. */
  private streamSession: string | undefined;

  constructor(
    private readonly target: HttpTarget,
    limits: StreamLimits & { warn?: (message: string) => void } = {},
  ) {
    this.url = new URL(target.url);
    this.fetch = target.fetch ?? fetch;
    this.maxBytes = limits.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.warn = limits.warn ?? ((message) => process.emitWarning(message));
    this.tools = new ToolHeaders(this.warn);
  }

  /** The legacy session's GET stream (server→client messages); `undefined` outside a legacy HTTP session. */
  get sessionStreamState(): SessionStreamState | undefined {
    return this.sessionStream?.state;
  }

  /** Spawns or connects; see {@link ClientTransport.start}. */
  async start(events: TransportEvents): Promise<void> {
    this.events = events;
  }

  /** See {@link ClientTransport.setEra}. */
  setEra(era: EraInfo): void {
    this.era = era;
    // Each session has its own GET stream: a new session (after the last one ended) opens its own;
    // none once the transport is closed (a new session's handshake may finish after close()).
    if (era.era === 'legacy' && this.sessionId && this.streamSession !== this.sessionId && !this.closed) this.listenLegacy();
  }

  principal(): string {
    return this.lastToken ? createHash('sha256').update(this.lastToken).digest('base64url').slice(0, 22) : '';
  }

  async request(request: JsonRpcRequest, exchange: Exchange): Promise<JsonRpcResponse> {
    const unhook = this.cancelOnAbort(request, exchange.signal);
    // The session the request goes out in: a 404 ends that one, not a newer one opened meanwhile.
    const session = this.sessionId;
    try {
      const response = await this.post(request, exchange, this.requestHeaders(request));
      try {
        return await this.answerOf(request, exchange, response, session);
      } finally {
        this.release(response);
      }
    } finally {
      unhook();
    }
  }

  /**
   * Legacy sessions (2025-11-25): a closed stream is not a cancellation there (the server may
   * answer on a resumed stream), so an abort also POSTs `notifications/cancelled`, never for
   * `initialize`. Modern HTTP cancels by closing the stream alone (H-13).
   */
  private cancelOnAbort(request: JsonRpcRequest, signal: AbortSignal | undefined): () => void {
    if (!signal || signal.aborted || this.era?.era !== 'legacy' || request.method === 'initialize') return () => {};
    const onAbort = () => void this.fire(cancelledNotification(request, signal.reason)).catch(() => {});
    signal.addEventListener('abort', onAbort, { once: true });
    return () => signal.removeEventListener('abort', onAbort);
  }

  /** POSTs a message that needs no answer (a notification, or a legacy answer to the server). */
  private async fire(message: JsonRpcNotification | JsonRpcResponse): Promise<void> {
    const response = await this.post(message, {}, this.baseHeaders());
    await response.body?.cancel();
    this.release(response);
  }

  private release(response: Response): void {
    const link = this.streams.get(response);
    if (link) this.unlink(link);
  }

  /** Done with a request's controller: a long-lived caller's signal (the GET stream's) keeps no listener per request. */
  private unlink(link: Link): void {
    this.open.delete(link.controller);
    link.release();
  }

  private async answerOf(request: JsonRpcRequest, exchange: Exchange, response: Response, session: string | undefined): Promise<JsonRpcResponse> {
    if (response.headers.get('mcp-session-id') && request.method === 'initialize') this.sessionId = response.headers.get('mcp-session-id')!;
    const type = response.headers.get('content-type') ?? '';
    let answer: JsonRpcResponse | undefined;
    if (type.startsWith('text/event-stream')) {
      const cursor: StreamCursor = {};
      const onData = (data: string) => {
        answer = this.onStreamMessage(request, exchange, data);
        return answer !== undefined;
      };
      await this.guard(request, exchange, readEventStream(response.body, this.maxBytes, onData, cursor));
      // Legacy resumability (2025-11-25 §Resumability): a stream that ended before its answer, after
      // an event id, is resumed with GET + Last-Event-ID once the server's `retry` delay has passed.
      for (let resumed = 0; !answer && this.era?.era === 'legacy' && cursor.lastEventId !== undefined && resumed < MAX_RESUMPTIONS; resumed++) {
        await this.guard(request, exchange, this.resume(cursor, exchange, onData));
      }
      if (!answer) throw new ConnectionClosedError(`The server closed the ${request.method} stream before answering; re-issue the request`);
    } else {
      const text = await this.guard(request, exchange, readBodyText(response.body, this.maxBytes));
      answer = this.readAnswer(request, response.status, type, text, session);
    }
    return this.viewOf(request, answer);
  }

  async notify(notification: JsonRpcNotification): Promise<void> {
    // Modern HTTP has no client→server notifications that matter (cancellation = closing the stream).
    if (this.era?.era !== 'legacy') return;
    await this.fire(notification);
  }

  /** See {@link ClientTransport.close}. */
  async close(): Promise<void> {
    this.closed = true;
    this.sessionStream?.close();
    for (const controller of this.open) controller.abort();
    if (this.sessionId) {
      await sameOriginFetch(this.fetch, this.url, { method: 'DELETE', headers: this.baseHeaders() })
        .then((r) => r.body?.cancel())
        .catch(() => {});
    }
  }

  private baseHeaders(): Record<string, string> {
    const headers: Record<string, string> = { ...this.target.headers, accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
    if (this.era) headers['mcp-protocol-version'] = this.era.protocolVersion;
    if (this.sessionId) headers['mcp-session-id'] = this.sessionId;
    return headers;
  }

  private requestHeaders(request: JsonRpcRequest): Record<string, string> {
    const headers = this.baseHeaders();
    const params = request.params ?? {};
    const version = (params._meta as JsonObject | undefined)?.['io.modelcontextprotocol/protocolVersion'];
    if (typeof version !== 'string') return headers;
    // A modern request (before the era is settled too: the discover probe).
    headers['mcp-protocol-version'] = version;
    headers['mcp-method'] = request.method;
    const nameParam = NAME_PARAM[request.method];
    if (nameParam && typeof params[nameParam] === 'string') headers['mcp-name'] = encodeHeaderValue(params[nameParam] as string);
    if (request.method === 'tools/call') Object.assign(headers, this.tools.headersFor(params.name as string, params.arguments as JsonObject | undefined));
    return headers;
  }

  /** POSTs one message; see {@link send}. */
  private post(message: JsonRpcRequest | JsonRpcNotification | JsonRpcResponse, exchange: Exchange, headers: Record<string, string>): Promise<Response> {
    return this.send({ method: 'POST', body: JSON.stringify(message) }, 'method' in message ? message.method : 'request', exchange, headers);
  }

  /** One HTTP request to the endpoint (a POST, or the GET of a stream), handling the bearer token and its 401 retry. */
  private async send(init: { method: 'GET' | 'POST'; body?: string }, label: string, exchange: Exchange, headers: Record<string, string>): Promise<Response> {
    if (this.closed) throw new ConnectionClosedError('The client was closed');
    let challenge: BearerChallenge | undefined;
    for (let attempt = 0; ; attempt++) {
      const token = this.target.token ? await this.target.token(challenge ? { challenge } : {}) : undefined;
      if (attempt > 0 && (token === undefined || token === this.lastToken)) throw new UnauthorizedError(challenge!);
      if (token !== undefined) {
        this.lastToken = token;
        headers.authorization = `Bearer ${token}`;
      }
      const link = childController(exchange.signal);
      const signal = link.controller.signal;
      this.open.add(link.controller);
      signal.addEventListener('abort', link.release, { once: true });
      let response: Response;
      try {
        response = await sameOriginFetch(this.fetch, this.url, { ...init, headers, signal });
      } catch (error) {
        this.unlink(link);
        if (exchange.signal?.aborted) throw this.abortError(label, exchange.signal);
        // The client's own refusals from a wrapped fetch (OAuthClient: AuthorizationError) stay as they are.
        if (error instanceof McpClientError) throw error;
        throw new ConnectionClosedError(
          `Could not reach ${this.url.href}: ${(error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message}`,
          { cause: error },
        );
      }
      // The controller stays registered while the body is read, so close() can end open streams.
      this.streams.set(response, link);
      if (response.status === 401 || (response.status === 403 && response.headers.get('www-authenticate'))) this.unlink(link);
      if (response.status === 401) {
        await response.body?.cancel();
        challenge = parseBearerChallenge(response.headers.get('www-authenticate'));
        if (!this.target.token) throw new UnauthorizedError(challenge);
        continue;
      }
      if (response.status === 403 && response.headers.get('www-authenticate')) {
        await response.body?.cancel();
        throw new ForbiddenError(parseBearerChallenge(response.headers.get('www-authenticate')));
      }
      return response;
    }
  }

  private abortError(method: string, signal: AbortSignal): Error {
    return signal.reason instanceof Error ? signal.reason : new RequestCancelledError(method, signal.reason);
  }

  /** Runs a body read, turning an abort of the request into its reason. */
  private async guard<T>(request: JsonRpcRequest, exchange: Exchange, reading: Promise<T>): Promise<T> {
    try {
      return await reading;
    } catch (error) {
      if (exchange.signal?.aborted) throw this.abortError(request.method, exchange.signal);
      if (this.closed) throw new ConnectionClosedError('The client was closed');
      throw error;
    }
  }

  /** One SSE event: a notification (passed on), a server request (legacy: answered), or the answer. */
  private onStreamMessage(request: JsonRpcRequest, exchange: Exchange, data: string): JsonRpcResponse | undefined {
    const incoming = readIncoming(data);
    if (incoming.kind === 'notification') {
      exchange.onNotification?.(incoming.message);
      return undefined;
    }
    if (incoming.kind === 'request') {
      void answerServerRequest(this.events, incoming.message)
        .then((answer) => this.fire(answer))
        .catch(() => {});
      return undefined;
    }
    if (incoming.message.id !== request.id)
      throw new ProtocolViolationError(
        `The server answered id ${JSON.stringify(incoming.message.id ?? null)} on the stream of request ${JSON.stringify(request.id)}`,
      );
    return incoming.message;
  }

  /** A JSON (or empty) body: the answer, whatever the status, when it is a JSON-RPC response. */
  private readAnswer(request: JsonRpcRequest, status: number, type: string, text: string, session: string | undefined): JsonRpcResponse {
    if (type.includes('json') && text) {
      let incoming;
      try {
        incoming = readIncoming(text);
      } catch (error) {
        if (status >= 400) throw new HttpStatusError(status, text);
        throw error;
      }
      if (incoming.kind === 'response') {
        const id = incoming.message.id;
        if (id !== undefined && id !== null && id !== request.id)
          throw new ProtocolViolationError(`The server answered id ${JSON.stringify(id)} to request ${JSON.stringify(request.id)}`);
        // A 404 in a session that does not answer this very request says the session is gone (its body varies by server).
        if (status === 404 && this.inLegacySession(session) && id !== request.id) throw this.sessionGone(session);
        // An error the server could not tie to the request (no id, or null) still answers it.
        return { ...incoming.message, id: request.id } as JsonRpcResponse;
      }
    }
    if (status === 404 && this.inLegacySession(session)) throw this.sessionGone(session);
    if (status === 403) throw new ForbiddenError(undefined);
    throw new HttpStatusError(status, text);
  }

  /** Modern `tools/list` pages lose the tools an HTTP client must not call (invalid `x-mcp-header`). */
  private viewOf(request: JsonRpcRequest, answer: JsonRpcResponse): JsonRpcResponse {
    if (request.method !== 'tools/list' || this.era?.era === 'legacy' || !('result' in answer)) return answer;
    const tools = (answer.result as { tools?: ToolDefinition[] }).tools;
    if (!Array.isArray(tools)) return answer;
    return { ...answer, result: { ...answer.result, tools: this.tools.accept(tools) } };
  }

  /** Waits the server's `retry` delay, then reads the GET stream resumed after `cursor.lastEventId`. */
  private async resume(cursor: StreamCursor, exchange: Exchange, onData: (data: string) => boolean): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, retryWait(cursor.retryMs)));
    const response = await this.getStream(cursor.lastEventId, exchange.signal);
    try {
      if (!response.ok || !(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
        await response.body?.cancel();
        cursor.lastEventId = undefined;
        return;
      }
      await readEventStream(response.body, this.maxBytes, onData, cursor);
    } finally {
      this.release(response);
    }
  }

  /** GETs an SSE stream of the session: the standalone one, or the one `lastEventId` names (resumption). */
  private getStream(lastEventId: string | undefined, signal: AbortSignal | undefined): Promise<Response> {
    const headers = this.baseHeaders();
    delete headers['content-type'];
    headers.accept = 'text/event-stream';
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
    return this.send({ method: 'GET' }, 'GET', { signal }, headers);
  }

  /** Legacy sessions: the standalone GET stream carrying list changes, resource updates and server requests. */
  private listenLegacy(): void {
    const session = (this.streamSession = this.sessionId);
    this.sessionStream = new SessionStream(
      {
        open: (lastEventId, signal) => this.getStream(lastEventId, signal),
        release: (response) => this.release(response),
        message: (data) => this.onSessionMessage(data),
        resumed: () => this.events.onResumed(),
        sessionGone: () => this.sessionGone(session),
        warn: this.warn,
      },
      this.maxBytes,
    );
  }

  /** One message of the standalone stream; one that is not JSON-RPC is reported and skipped. */
  private onSessionMessage(data: string): void {
    let incoming;
    try {
      incoming = readIncoming(data);
    } catch (error) {
      this.warn(`Skipped a message on the session's GET stream: ${(error as Error).message}`);
      return;
    }
    if (incoming.kind === 'notification') this.events.onNotification(incoming.message);
    else if (incoming.kind === 'request')
      void answerServerRequest(this.events, incoming.message)
        .then((answer) => this.fire(answer))
        .catch(() => {});
    else this.warn(`Skipped a response (id ${JSON.stringify(incoming.message.id ?? null)}) on the session's GET stream, which carries none`);
  }

  /** Whether a request went out in a legacy session (`session`: the id it carried). */
  private inLegacySession(session: string | undefined): boolean {
    return this.era?.era === 'legacy' && session !== undefined;
  }

  /**
   * The server answered 404 to `session` (2025-11-25: it ended): the dead id is sent no more, and
   * the client is told once, whichever request or stream noticed first (it opens a new session,
   * or closes). A 404 to a session that already ended, from a request sent before, tells nothing
   * new: the request alone fails with {@link SessionExpiredError}.
   */
  private sessionGone(session: string | undefined): SessionExpiredError {
    const error = new SessionExpiredError();
    if (session === undefined || session !== this.sessionId) return error;
    this.sessionId = undefined;
    this.sessionStream?.close();
    this.events.onSessionEnded(error);
    return error;
  }
}
