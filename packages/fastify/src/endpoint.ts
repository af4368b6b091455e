import {
  InvalidRequestError,
  McpProtocolError,
  type DecorumServer,
  type JsonRpcErrorObject,
  type Logger,
  type PipelineCall,
  type RequestId,
} from '@decorum/core';
import {
  errorResponse,
  isErrorResponse,
  isThenable,
  parseJson,
  readableId,
  readEnvelope,
  type EngineAnswer,
  type EngineResponse,
} from '@decorum/core/transport';
import { LinkedList } from '@decorum/transport-kit';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { acceptedResponses } from './headers/accept.js';
import { bodyText, checkBodyEncoding } from './body-text.js';
import type { McpParamHeaders } from './headers/mcp-param-headers.js';
import type { Exchange } from './exchange.js';
import { AnswerWriter, sendJson, sendRefusal } from './answer-writer.js';
import { HttpRefusal } from './refusal.js';
import { SseStream } from './sse.js';
import { RunningRequest } from './running-requests.js';
import { PostChannel, type PostChecks } from './post-channel.js';
import { targetName } from './headers/standard-headers.js';
import { NOTIFICATION_STATUS } from './status.js';

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

  /** What every POST's channel checks with (post-channel.ts). */
  private readonly checks: PostChecks;

  constructor(
    private readonly server: DecorumServer,
    paramHeaders: McpParamHeaders,
    private readonly loggerFor: (request: FastifyRequest) => Logger,
    sseKeepAliveMs: number,
    /** Answers of this many bytes or more are written straight to the socket (direct-answer.ts). */
    directWriteBytes: number,
    /** On a protected endpoint: the scope check once the target is known (403), see auth/. */
    authorize?: (call: PipelineCall, exchange: Exchange) => HttpRefusal | undefined,
    /** On a protected endpoint: the `WWW-Authenticate` value of a guard's 403. */
    challenge?: (error: JsonRpcErrorObject) => string,
  ) {
    this.checks = { paramHeaders, authorize, sseKeepAliveMs };
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
      return this.fail(reply, exchange, readableId(message), error);
    }
    if (envelope.kind === 'response') {
      const error = new InvalidRequestError('Invalid Request: the body is a JSON-RPC response; clients POST requests and notifications only');
      return this.fail(reply, exchange, undefined, error);
    }
    if (envelope.kind === 'notification') {
      // This revision defines no client notifications over HTTP (cancelling is closing the
      // stream): only an extension's has something to act on; no MCP headers are required for it.
      exchange.mcpMethod = envelope.notification.method;
      this.server.engine.notification(envelope.notification, true);
      return reply.code(NOTIFICATION_STATUS).send();
    }

    const rpc = envelope.request;
    exchange.mcpMethod = rpc.method;
    // Only the log line reads the target's name.
    if (exchange.onClose) exchange.mcpName = targetName(rpc);
    exchange.rpcId = rpc.id;
    // The engine calls the channel's header checks where the spec puts them, and the channel opens
    // an SSE stream once the target passed them, when the answer is to be one.
    const channel = new PostChannel(this.checks, exchange, reply, headers, this.loggerFor(request));
    const answer = engine.answerRequest(rpc, channel);
    if (channel.refusal) return sendRefusal(reply, channel.refusal);
    if (channel.stream) return this.stream(reply, exchange, channel, channel.stream, answer);
    // Answered at once (a plain tool, any refusal): written in this turn, before anything else could
    // run, so shutdown never needs to find it among the running requests.
    if (!isThenable(answer)) return this.answerJson(reply, exchange, channel, answer);
    const running = this.running.add(new RunningRequest(exchange, reply));
    return answer.then((response) => {
      this.running.remove(running);
      return this.answerJson(reply, exchange, channel, response);
    });
  }

  /**
   * Writes the engine's answer as a JSON response (nothing once the client has gone). An error from
   * before routing — `_meta`, the MCP headers, the version — takes the request's status (the codec's).
   */
  private answerJson(reply: FastifyReply, exchange: Exchange, channel: PostChannel, response: EngineResponse | undefined): FastifyReply {
    if (response === undefined || exchange.cancellation.cancelled) return reply.sent ? reply : this.abandon(reply, exchange);
    exchange.stream = 'json';
    return this.answers.json(reply, exchange, channel.logger, response, channel.routed ? 'handler' : 'request');
  }

  /** The answer of a request whose SSE stream is open: its notifications went to it, the response ends it. */
  private async stream(reply: FastifyReply, exchange: Exchange, channel: PostChannel, stream: SseStream, answer: EngineAnswer): Promise<FastifyReply> {
    const running = this.running.add(new RunningRequest(exchange, stream));
    let response: EngineResponse | undefined;
    try {
      response = await answer;
    } catch (error) {
      // answerRequest() never rejects by contract; should it, the client still gets an answer, with no details.
      channel.logger.error({ err: error }, 'MCP request failed unexpectedly');
      response = errorResponse(exchange.rpcId, error);
    }
    this.running.remove(running);
    if (response !== undefined && isErrorResponse(response)) exchange.errorCode = response.error.code;
    // A cancelled request (client gone) gets nothing more; the stream ends either way — also when
    // the result cannot be serialized (then with a -32603 for its id).
    stream.end(
      response === undefined || exchange.cancellation.cancelled ? undefined : this.answers.lastEvent(exchange, channel.logger, response, channel.encoding),
    );
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

  /** A body that is no JSON-RPC request (bad JSON, a bad envelope, a response): its error, with the status of an error before routing. */
  private fail(reply: FastifyReply, exchange: Exchange, id: RequestId | undefined, error: unknown): FastifyReply {
    // Typed protocol errors are the client's business; anything else is ours to log (its details never leave).
    if (!(error instanceof McpProtocolError)) reply.log.error({ err: error }, 'MCP request failed unexpectedly');
    const response = errorResponse(id, error);
    exchange.errorCode = response.error.code;
    exchange.stream = 'json';
    return sendJson(reply, this.answers.errorStatus(response.error.code, 'request'), response);
  }
}
