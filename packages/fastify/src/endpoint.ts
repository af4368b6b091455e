import {
  InvalidRequestError,
  McpProtocolError,
  type AuthInfo,
  type DecorumServer,
  type JsonRpcErrorObject,
  type JsonRpcNotification,
  type Logger,
  type RequestId,
} from '@decorum/core';
import {
  type Cancellation,
  encodeMessage,
  errorResponse,
  isErrorResponse,
  isThenable,
  parseJson,
  readableId,
  readEnvelope,
  type EngineResponse,
  type ErrorOrigin,
  type FlowChannel,
  type PreparedRequest,
} from '@decorum/core/transport';
import { LinkedList } from '@decorum/transport-kit';
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { acceptedResponses, type AcceptedResponses } from './headers/accept.js';
import { bodyText, checkBodyEncoding } from './body-text.js';
import type { McpParamHeaders } from './headers/mcp-param-headers.js';
import type { ExchangeRecord } from './request-log.js';
import { AnswerWriter, logUnserializable, sendJson, sendRefusal } from './answer-writer.js';
import { HttpRefusal } from './refusal.js';
import { SseStream } from './sse.js';
import { RunningRequest } from './running-requests.js';
import { LISTEN_METHOD, sseFlow } from './listen-stream.js';
import { checkMethodHeaders, checkProtocolVersionHeader, targetName } from './headers/standard-headers.js';
import { NOTIFICATION_STATUS } from './status.js';

/** Per-request state shared by the endpoint's hooks and its handler. */
export interface Exchange extends ExchangeRecord {
  /** Cancelled when the client goes away before the response is complete. */
  readonly cancellation: Cancellation;
  accepted: AcceptedResponses;
  /** The verified caller, when the endpoint is protected (OAuth); becomes `ctx.auth`. */
  auth?: AuthInfo;
  /** Runs when the response closes (the request log line), with the request and reply it logs. */
  readonly onClose?: (exchange: Exchange) => void;
  readonly request?: FastifyRequest;
  readonly reply?: FastifyReply;
}

const noop = (): void => {};
/** A listen whose id is a bigint carries it in its messages' `_meta` too: exact digits there as well. */
const EXACT_INTEGERS = { exactIntegers: true } as const;

// `application/json`, optionally with parameters (`; charset=utf-8`).
const JSON_MEDIA_TYPE = /^application\/json\s*(;|$)/i;

/**
 * The POST side of the Streamable HTTP endpoint for one server. Its methods run in the spec's
 * order (§5.8): media type and Accept (hooks), then parse, envelope, notification, `_meta`,
 * `MCP-Protocol-Version`, version support, `Mcp-Method`/`Mcp-Name`, routing, `Mcp-Param-*`,
 * and only then the choice of JSON or SSE and the handler.
 */
export class McpEndpoint {
  /** Requests being executed, with where their answer goes (see running-requests.ts). */
  private readonly running = new LinkedList<RunningRequest<Exchange, FastifyReply | SseStream>>();
  private readonly answers: AnswerWriter;

  constructor(
    private readonly server: DecorumServer,
    private readonly paramHeaders: McpParamHeaders,
    private readonly loggerFor: (request: FastifyRequest) => Logger,
    private readonly sseKeepAliveMs: number,
    /** Answers of this many bytes or more are written straight to the socket (direct-answer.ts). */
    directWriteBytes: number,
    /** On a protected endpoint: the scope check once the target is known (403), see auth/. */
    private readonly authorize?: (prepared: PreparedRequest, exchange: Exchange) => HttpRefusal | undefined,
    /** On a protected endpoint: the `WWW-Authenticate` value of a guard's 403. */
    challenge?: (error: JsonRpcErrorObject) => string,
  ) {
    this.answers = new AnswerWriter(server.engine.modern, directWriteBytes, challenge);
  }

  /** Steps that need no body: 415 for a non-JSON Content-Type, 406 when Accept allows neither answer. */
  checkRequestLine(headers: IncomingHttpHeaders, exchange: Exchange): HttpRefusal | undefined {
    const type = headers['content-type'];
    if (type === undefined || !JSON_MEDIA_TYPE.test(type)) {
      return new HttpRefusal(
        'unsupported-media-type',
        `Unsupported Media Type: POST a JSON-RPC message as application/json (got ${type === undefined ? 'no Content-Type' : JSON.stringify(type)})`,
      );
    }
    const encoding = checkBodyEncoding(headers, type);
    if (encoding) return encoding;
    exchange.accepted = acceptedResponses(headers.accept);
    if (!exchange.accepted.json && !exchange.accepted.sse) {
      return new HttpRefusal('not-acceptable', 'Not Acceptable: the Accept header must allow application/json and text/event-stream');
    }
    return undefined;
  }

  /**
   * Handles one POST whose body the content-type parser kept as text. Not an async function: every
   * refusal, and the JSON answer of a method that answered at once, is sent synchronously (the
   * reply comes back); only a method that waits makes a promise (one `then`, no frame kept across it).
   */
  post(request: FastifyRequest, reply: FastifyReply, exchange: Exchange, headers: IncomingHttpHeaders): FastifyReply | Promise<FastifyReply> {
    const { engine } = this.server;
    let message: unknown;
    let envelope;
    try {
      message = parseJson(bodyText(request.body));
      envelope = readEnvelope(message);
    } catch (error) {
      return this.fail(reply, exchange, readableId(message), error, 'request');
    }
    if (envelope.kind === 'response') {
      const error = new InvalidRequestError('Invalid Request: the body is a JSON-RPC response; clients POST requests and notifications only');
      return this.fail(reply, exchange, undefined, error, 'request');
    }
    if (envelope.kind === 'notification') {
      // This revision defines no client notifications over HTTP (cancelling is closing the
      // stream), so an accepted one has nothing to act on; no MCP headers are required for it.
      exchange.mcpMethod = envelope.notification.method;
      return reply.code(NOTIFICATION_STATUS).send();
    }

    const rpc = envelope.request;
    exchange.mcpMethod = rpc.method;
    // Only the log line reads the target's name.
    if (exchange.onClose) exchange.mcpName = targetName(rpc);
    exchange.rpcId = rpc.id;
    let meta;
    try {
      meta = engine.readMeta(rpc); // a legacy `initialize` is answered here with -32022
      checkProtocolVersionHeader(headers, meta);
      engine.checkVersion(meta);
      checkMethodHeaders(headers, rpc);
    } catch (error) {
      return this.fail(reply, exchange, rpc.id, error, 'request');
    }
    let prepared: PreparedRequest;
    // Routing errors belong to the target (unknown tool, missing resource: 200, see core's era/modern-statuses.ts);
    // -32601 and the Mcp-Param-* -32020 keep their fixed 404 and 400.
    try {
      prepared = engine.route(rpc, meta);
      const denied = this.authorize?.(prepared, exchange);
      if (denied) return sendRefusal(reply, denied);
      if (prepared.target?.kind === 'tool') this.paramHeaders.checkTool(prepared.target.entry, prepared.params.arguments, headers);
    } catch (error) {
      return this.fail(reply, exchange, rpc.id, error, 'handler');
    }

    const logger = this.loggerFor(request);
    // SSE only when the request can receive notifications first (progress, logs) and the client
    // takes SSE — or when it takes nothing else.
    const canStream = meta.progressToken !== undefined || meta.logLevel !== undefined;
    // A listen is always a stream (L-12): it has no response until it ends.
    if (rpc.method === LISTEN_METHOD || (canStream && exchange.accepted.sse) || !exchange.accepted.json) return this.stream(reply, exchange, prepared, logger);

    exchange.stream = 'json';
    const answer = engine.answer(prepared, { cancellation: exchange.cancellation, logger, auth: exchange.auth, peer: request.ip, notify: noop });
    // Answered at once (a plain tool): written in this turn, before anything else could run, so
    // shutdown never needs to find it among the running requests.
    if (!isThenable(answer)) return this.answerJson(reply, exchange, logger, answer);
    const running = this.running.add(new RunningRequest(exchange, reply));
    return answer.then((response) => {
      this.running.remove(running);
      return this.answerJson(reply, exchange, logger, response);
    });
  }

  /** Writes the engine's answer as a JSON response (nothing once the client has gone). */
  private answerJson(reply: FastifyReply, exchange: Exchange, logger: Logger, response: EngineResponse | undefined): FastifyReply {
    if (response === undefined || exchange.cancellation.cancelled) return reply.sent ? reply : this.abandon(reply, exchange);
    return this.answers.json(reply, exchange, logger, response);
  }

  /** Runs the request with an SSE response: its notifications, then the final response, which ends the stream. */
  private async stream(reply: FastifyReply, exchange: Exchange, prepared: PreparedRequest, logger: Logger): Promise<FastifyReply> {
    exchange.stream = 'sse';
    // The stream is written to the socket directly; headers other hooks set (CORS, request ids) are kept.
    reply.hijack();
    const stream = new SseStream(reply.raw);
    stream.open(reply.getHeaders() as OutgoingHttpHeaders, this.sseKeepAliveMs);
    let response: EngineResponse | undefined;
    const running = this.running.add(new RunningRequest(exchange, stream));
    const messageEncoding = typeof prepared.request.id === 'bigint' ? EXACT_INTEGERS : undefined;
    try {
      response = await this.server.engine.answer(prepared, {
        cancellation: exchange.cancellation,
        logger,
        auth: exchange.auth,
        peer: reply.request.ip,
        notify: (notification: JsonRpcNotification) => {
          const json = encodeMessage(notification, messageEncoding, (error) => logUnserializable(logger, error));
          if (json !== undefined) stream.send(json);
        },
        flow: sseFlow(reply.raw),
      } as FlowChannel);
    } catch (error) {
      // answer() never throws by contract; should it, the client still gets an answer, with no details.
      logger.error({ err: error }, 'MCP request failed unexpectedly');
      response = errorResponse(prepared.request.id, error);
    }
    this.running.remove(running);
    if (response !== undefined && isErrorResponse(response)) exchange.errorCode = response.error.code;
    // A cancelled request (client gone) gets nothing more; the stream ends either way — also when
    // the result cannot be serialized (then with a -32603 for its id).
    stream.end(response === undefined || exchange.cancellation.cancelled ? undefined : this.answers.lastEvent(exchange, logger, response, messageEncoding));
    return reply;
  }

  /**
   * Answers every request still executing with `error` — a JSON answer (200, as handler-level
   * errors are), or the last event of its SSE stream — and cancels it (its handler sees
   * `ctx.signal` abort; what it returns later is dropped). For shutdown and crashes.
   */
  answerRunning(error: () => McpProtocolError): void {
    for (const { key: exchange, answer } of this.running.takeAll()) {
      const message = errorResponse(exchange.rpcId, error());
      if (answer instanceof SseStream) this.answers.cutOff(exchange, message, undefined, answer);
      else this.answers.cutOff(exchange, message, answer, undefined);
      exchange.cancellation.cancel();
    }
  }

  /** The client went away: nothing is written, and Fastify is told the reply is handled. */
  private abandon(reply: FastifyReply, exchange: Exchange): FastifyReply {
    exchange.cancelled = true;
    return reply.hijack();
  }

  private fail(reply: FastifyReply, exchange: Exchange, id: RequestId | undefined, error: unknown, origin: ErrorOrigin): FastifyReply {
    // Typed protocol errors are the client's business; anything else is ours to log (its details never leave).
    if (!(error instanceof McpProtocolError)) reply.log.error({ err: error }, 'MCP request failed unexpectedly');
    const response = errorResponse(id, error);
    exchange.errorCode = response.error.code;
    exchange.stream = 'json';
    return sendJson(reply, this.answers.errorStatus(response.error.code, origin), response);
  }
}
