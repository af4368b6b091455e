import {
  LEGACY_PROTOCOL_VERSIONS,
  ParseError,
  type DecorumServer,
  type JsonRpcErrorObject,
  type JsonRpcErrorResponse,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type Logger,
  type McpProtocolError,
  type PipelineCall,
} from '@decorum/core';
import {
  Cancellation,
  classifyByBody,
  classifyByHeaders,
  encodeMessage,
  isLegacyOpening,
  isThenable,
  LegacyCodec,
  legacyErrorResponse,
  parseJson,
  readEnvelope,
  type EngineResponse,
  type RequestChannel,
} from '@decorum/core/transport';
import { LinkedList } from '@decorum/transport-kit';
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Exchange } from '../exchange.js';
import { AnswerWriter, logUnserializable, sendRefusal } from '../answer-writer.js';
import { readHeader } from '../headers/header-value.js';
import { HttpRefusal } from '../refusal.js';
import { RunningRequest, type AnswersRunning } from '../running-requests.js';
import { NOTIFICATION_STATUS, RESULT_STATUS } from '../status.js';
import { parseEventId, type EventStream } from './event-stream.js';
import { callerKey, SessionStore, type HttpSession } from './session-store.js';

const SESSION_HEADER = 'mcp-session-id';

/** `initialize` is answered by the session itself: nothing runs, nothing is sent before its answer. */
const INITIALIZE_CHANNEL: RequestChannel = { notify: () => {} };
/**
 * The legacy (2025-11-25 and earlier) side of the Streamable HTTP endpoint: sessions minted on
 * `initialize` (`Mcp-Session-Id`), required afterwards, ended by `DELETE` or by idling; the
 * standalone `GET` stream; resumption with `Last-Event-ID`. Origin, body limit and OAuth are the
 * plugin's hooks, the same as for modern requests.
 */
export class LegacyEndpoint implements AnswersRunning {
  /** Requests being executed, with where their answer goes (see running-requests.ts). */
  private readonly running = new LinkedList<RunningRequest<Exchange, AnswerRoute>>();
  private readonly answers: AnswerWriter;

  constructor(
    private readonly server: DecorumServer,
    readonly store: SessionStore,
    private readonly loggerFor: (request: FastifyRequest) => Logger,
    /** Answers of this many bytes or more are written straight to the socket (direct-answer.ts). */
    directWriteBytes: number,
    /** On a protected endpoint: the scope check once the target is known (403). */
    private readonly authorize?: (call: PipelineCall, exchange: Exchange) => HttpRefusal | undefined,
    /** On a protected endpoint: the `WWW-Authenticate` value of a guard's 403. */
    challenge?: (error: JsonRpcErrorObject) => string,
  ) {
    this.answers = new AnswerWriter(new LegacyCodec(), directWriteBytes, challenge);
  }

  /**
   * Whether a POST belongs to the legacy era (core's inbound classifier decides), and its parsed
   * body (or the `ParseError` of a body that could not be parsed) when it does. Cheap for modern
   * requests: they carry `MCP-Protocol-Version: 2026-07-28` and no session id, and are not parsed
   * here. A request of neither era goes to the modern endpoint, whose checks refuse it in the
   * spec's order (the same -32602).
   */
  claim(request: FastifyRequest, headers: IncomingHttpHeaders): unknown {
    const inSession = headers[SESSION_HEADER] !== undefined;
    const version = headers['mcp-protocol-version'] as string | undefined;
    if (classifyByHeaders(this.server.eras, inSession, version)) return undefined;
    let message: unknown;
    try {
      message = parseJson(typeof request.body === 'string' ? request.body : '');
    } catch (error) {
      // Malformed or refused JSON: the modern path reports -32700, unless the request is in a session.
      message = error;
    }
    return classifyByBody(this.server.eras, message, inSession, version).era === 'legacy' ? message : undefined;
  }

  /**
   * Whether a GET or DELETE belongs to the legacy era: on a dual-era endpoint, not one that names
   * a modern `MCP-Protocol-Version`, which gets the modern rule, 405 (DIGEST §17.4, H-04).
   */
  claimsMethod(headers: IncomingHttpHeaders): boolean {
    return classifyByHeaders(this.server.eras, false, headers['mcp-protocol-version'] as string | undefined) === undefined;
  }

  /** One POST in the legacy era: initialize, or a message in a session. Synchronous unless a request runs. */
  post(request: FastifyRequest, reply: FastifyReply, exchange: Exchange, message: unknown): FastifyReply | Promise<FastifyReply> {
    let envelope;
    try {
      // What claim() could not parse (no parsed message is an Error): its -32700, with the id a refused message keeps.
      if (message instanceof ParseError) throw message;
      envelope = readEnvelope(message);
    } catch (error) {
      return this.refused(reply, legacyErrorResponse(undefined, error));
    }
    const read = this.readSessionHeaders(request, reply, VERSION_HEADER);
    if (!read) return reply;
    const [sessionId, version] = read;
    if (envelope.kind === 'request') {
      exchange.mcpMethod = envelope.request.method;
      exchange.rpcId = envelope.request.id;
    }
    if (envelope.kind === 'request' && sessionId === undefined && isLegacyOpening(envelope.request)) return this.initialize(reply, exchange, envelope.request);
    const session = this.session(reply, exchange, sessionId);
    if (!session) return reply;
    if (version !== undefined && !LEGACY_PROTOCOL_VERSIONS.includes(version)) {
      return sendRefusal(
        reply,
        new HttpRefusal(
          'unreadable-body',
          `Bad Request: MCP-Protocol-Version ${JSON.stringify(version)} is not a revision this session can speak (${LEGACY_PROTOCOL_VERSIONS.join(', ')})`,
        ),
      );
    }
    if (envelope.kind === 'response') {
      // A malformed answer (`"error": null`) is a 400; the ask it names has already failed.
      const refused = session.core.handleResponse(message as { id?: unknown });
      if (refused) return this.refused(reply, legacyErrorResponse(undefined, refused));
      return reply.code(NOTIFICATION_STATUS).send();
    }
    if (envelope.kind === 'notification') {
      exchange.mcpMethod = envelope.notification.method;
      session.core.handleNotification(envelope.notification);
      return reply.code(NOTIFICATION_STATUS).send();
    }
    return this.request(request, reply, exchange, session, envelope.request);
  }

  /** The standalone stream (`GET`), or the resumption of a stream (`GET` with `Last-Event-ID`). */
  get(request: FastifyRequest, reply: FastifyReply, exchange: Exchange): FastifyReply {
    const read = this.readSessionHeaders(request, reply, LAST_EVENT_ID_HEADER);
    if (!read) return reply;
    const [sessionId, lastEventId] = read;
    const session = this.session(reply, exchange, sessionId);
    if (!session) return reply;
    const accept = request.headers.accept ?? '';
    if (!/text\/event-stream|\*\/\*/i.test(accept))
      return sendRefusal(reply, new HttpRefusal('not-acceptable', 'Not Acceptable: the GET stream is text/event-stream; send Accept: text/event-stream'));
    const last = parseEventId(lastEventId);
    const stream = last ? session.findStream(last.stream) : session.standalone;
    if (!stream)
      return sendRefusal(
        reply,
        new HttpRefusal('unknown-session', 'Not Found: Last-Event-ID names a stream this session no longer keeps; open the GET stream without it'),
      );
    // A resumption replaces a connection the client takes for lost; a second plain GET is a conflict.
    if (!last && stream.attached) {
      return sendRefusal(reply, new HttpRefusal('stream-conflict', 'Conflict: this session already has a standalone GET stream open'));
    }
    // A replay with a hole in it would lose messages unseen: refused as a stream no longer kept is.
    if (last && !stream.canResumeAfter(last.seq))
      return sendRefusal(
        reply,
        new HttpRefusal(
          'unknown-session',
          'Not Found: events after Last-Event-ID are no longer kept (acknowledged, or beyond legacySessions.replayBytes/replayEvents); open the GET stream without it',
        ),
      );
    exchange.stream = 'sse';
    reply.hijack();
    stream.attach(reply.raw, { ...(reply.getHeaders() as OutgoingHttpHeaders), [SESSION_HEADER]: session.id }, last?.seq);
    return reply;
  }

  /** `DELETE` ends the session; its id answers 404 from then on. */
  delete(request: FastifyRequest, reply: FastifyReply, exchange: Exchange): FastifyReply {
    const read = this.readSessionHeaders(request, reply);
    if (!read) return reply;
    const session = this.session(reply, exchange, read[0]);
    if (!session) return reply;
    this.store.delete(session.id);
    return reply.code(200).send();
  }

  private initialize(reply: FastifyReply, exchange: Exchange, rpc: JsonRpcRequest): FastifyReply {
    const caller = callerKey(exchange.auth?.principal, reply.request.ip);
    const refusal = this.store.refusal(caller);
    if (refusal) return sendRefusal(reply, refusal);
    const session = this.store.create(exchange.auth?.principal, (outlet) => this.server.openLegacySession(outlet), caller);
    const answer = session.core.answerRequest(rpc, INITIALIZE_CHANNEL);
    const response = isThenable(answer) ? undefined : answer;
    if (!response || 'error' in response) {
      // A refused initialize opens nothing.
      this.store.delete(session.id);
      return this.refused(reply, response ?? legacyErrorResponse(rpc.id, new Error('initialize did not answer')));
    }
    return this.json(reply.header(SESSION_HEADER, session.id), RESULT_STATUS, response);
  }

  /**
   * `Mcp-Session-Id` and the one other header a method reads with it, as field values: a byte one
   * may not hold (≥ 0x80) answers 400 here, as on the modern side, and gives `undefined`.
   */
  private readSessionHeaders(
    request: FastifyRequest,
    reply: FastifyReply,
    other?: SessionMessageHeader,
  ): [sessionId: string | undefined, other: string | undefined] | undefined {
    try {
      return [readHeader(request.headers, SESSION_HEADER, 'Mcp-Session-Id'), other && readHeader(request.headers, other.key, other.name)];
    } catch (error) {
      this.refused(reply, legacyErrorResponse(undefined, error));
      return undefined;
    }
  }

  /** The session a request names: 400 without an id, 404 for an unknown, ended, expired or someone else's. */
  private session(reply: FastifyReply, exchange: Exchange, id: string | undefined): HttpSession | undefined {
    if (id === undefined) {
      sendRefusal(reply, new HttpRefusal('session-required', 'Bad Request: Mcp-Session-Id header is required; send initialize first to open a session'));
      return undefined;
    }
    const session = this.store.get(id);
    // Another principal's session is as unknown as one that never existed.
    if (!session || session.principal !== exchange.auth?.principal) {
      sendRefusal(
        reply,
        new HttpRefusal('unknown-session', 'Not Found: no such session (it ended, expired or never existed); send initialize to open a new one'),
      );
      return undefined;
    }
    return session;
  }

  private request(
    request: FastifyRequest,
    reply: FastifyReply,
    exchange: Exchange,
    session: HttpSession,
    rpc: JsonRpcRequest,
  ): FastifyReply | Promise<FastifyReply> {
    const logger = this.loggerFor(request);
    // Closing the connection is not cancelling in this revision (notifications/cancelled is): the
    // request runs on, and the client may resume its stream with Last-Event-ID.
    const running: AnswerRoute = { reply, cancellation: new Cancellation(), stream: undefined };
    // JSON unless the call sends something before its response (progress, a log, an ask): then,
    // if the client takes SSE, its resumable stream opens at the first such message.
    const openStream = (): EventStream => {
      if (running.stream) return running.stream;
      exchange.stream = 'sse';
      reply.hijack();
      running.stream = session.stream();
      running.stream.attach(reply.raw, { ...(reply.getHeaders() as OutgoingHttpHeaders), [SESSION_HEADER]: session.id });
      return running.stream;
    };
    const target = /text\/event-stream/i.test(request.headers.accept ?? '') ? openStream : () => session.standalone;
    const send = (message: JsonRpcNotification | JsonRpcRequest): void => {
      // A message JSON cannot hold is logged and dropped; the request still gets its answer.
      const json = encodeMessage(message as JsonRpcNotification, undefined, (error) => logUnserializable(logger, error));
      if (json !== undefined) target().send(json);
    };
    const entry = this.running.add(new RunningRequest(exchange, running));
    session.running++;
    let refusal: HttpRefusal | undefined;
    const { authorize } = this;
    const channel: RequestChannel = { cancellation: running.cancellation, logger, auth: exchange.auth, peer: request.ip, sessionId: session.id, notify: send };
    if (authorize) {
      // The token's scopes for the target, once the engine knows it (a 403 of the transport's).
      channel.checkTarget = (call) => {
        refusal = authorize(call, exchange);
        if (refusal) throw refusal;
      };
    }
    // Should the session's run fail, Fastify's error handler answers.
    const failed = (error: unknown): never => {
      ended(session);
      this.running.remove(entry);
      throw error;
    };
    let answer;
    try {
      answer = session.core.answerRequest(rpc, channel, send);
    } catch (error) {
      return failed(error);
    }
    if (refusal) {
      ended(session);
      this.running.remove(entry);
      return sendRefusal(reply, refusal);
    }
    // A plain tool's answer is sent at once; a method that waits gets one then, no frame kept across it.
    if (!isThenable(answer)) return this.ran(reply, exchange, logger, session, entry, answer);
    return answer.then((response) => this.ran(reply, exchange, logger, session, entry, response), failed);
  }

  /** A request has run: its answer goes where the request's stream or reply is. */
  private ran(
    reply: FastifyReply,
    exchange: Exchange,
    logger: Logger,
    session: HttpSession,
    entry: RunningRequest<Exchange, AnswerRoute>,
    response: EngineResponse | undefined,
  ): FastifyReply {
    ended(session);
    // Already answered (shutdown, crash): what the handler returned later is dropped.
    if (!this.running.remove(entry)) return reply;
    const running = entry.answer;
    if (running.stream) {
      running.stream.end(response === undefined ? undefined : this.answers.lastEvent(exchange, logger, response));
      return reply;
    }
    exchange.stream = 'json';
    // Cancelled by the client (notifications/cancelled): no response, the POST is simply accepted.
    if (response === undefined) return reply.code(NOTIFICATION_STATUS).send();
    return this.answers.json(reply, exchange, logger, response);
  }

  /**
   * Answers every request still executing with `error` — a JSON answer, or the last event of its
   * stream — and cancels it (its handler sees `ctx.signal` abort). For shutdown and crashes.
   */
  answerRunning(error: () => McpProtocolError): void {
    for (const {
      key: exchange,
      answer: { reply, cancellation, stream },
    } of this.running.takeAll()) {
      this.answers.cutOff(exchange, legacyErrorResponse(exchange.rpcId, error()), reply, stream);
      cancellation.cancel();
    }
  }

  /** A JSON answer with a status of its own (a message of ours: an error, the initialize result). */
  private json(reply: FastifyReply, status: number, message: EngineResponse): FastifyReply {
    return this.answers.message(reply, status, message, this.loggerFor(reply.request));
  }

  /** A message that could not be taken (no session runs it): its error with the legacy codec's status. */
  private refused(reply: FastifyReply, response: JsonRpcErrorResponse): FastifyReply {
    return this.json(reply, this.answers.errorStatus(response.error.code, 'request'), response);
  }
}

/** Where a legacy request's answer goes: its reply, or the stream it opened. */
interface AnswerRoute {
  readonly reply: FastifyReply;
  readonly cancellation: Cancellation;
  stream: EventStream | undefined;
}

/** A header read with `Mcp-Session-Id`: its lower-case key and its name in error messages. */
interface SessionMessageHeader {
  readonly key: string;
  readonly name: string;
}
const VERSION_HEADER: SessionMessageHeader = { key: 'mcp-protocol-version', name: 'MCP-Protocol-Version' };
const LAST_EVENT_ID_HEADER: SessionMessageHeader = { key: 'last-event-id', name: 'Last-Event-ID' };

/** A session's request is over (answered or failed): the session counts it no more, and was seen now. */
function ended(session: HttpSession): void {
  session.running--;
  session.lastSeen = Date.now();
}
