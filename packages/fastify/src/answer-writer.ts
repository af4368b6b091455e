import type { JsonRpcErrorObject, JsonRpcErrorResponse, Logger } from '@decorum/core';
import {
  encodeMessage,
  errorResponse,
  isErrorResponse,
  type BodyEncoding,
  type EngineResponse,
  type EraCodec,
  type ErrorOrigin,
  type TextEncoding,
} from '@decorum/core/transport';
import type { FastifyReply } from 'fastify';
import { sendAnswerBody } from './direct-answer.js';
import { JSON_TYPE } from './headers/accept.js';
import { errorHeaders } from './headers/error-headers.js';
import type { ExchangeRecord } from './request-log.js';
import type { HttpRefusal } from './refusal.js';
import { refusalStatus, RESULT_STATUS } from './status.js';

/** Logs a message JSON could not hold (the client gets -32603; the details stay here). */
export function logUnserializable(logger: Logger, error: unknown): void {
  logger.error({ err: error }, 'a message could not be serialized to JSON');
}

const noop = (): void => {};
/** A JSON answer's body: a page's bytes copied once around its envelope, else the text. */
const AS_BODY: BodyEncoding = { body: true };

/** Writes one JSON-RPC message of ours (an error, the initialize result) as a plain JSON response. */
export function sendJson(reply: FastifyReply, status: number, message: EngineResponse | JsonRpcErrorResponse): FastifyReply {
  return reply.code(status).type(JSON_TYPE).send(encodeMessage(message, AS_BODY));
}

/** Answers a refusal: its own status and a JSON-RPC error body without `id`. */
export function sendRefusal(reply: FastifyReply, refusal: HttpRefusal): FastifyReply {
  if (refusal.headers) reply.headers(refusal.headers);
  return sendJson(reply, refusalStatus(refusal.kind), errorResponse(undefined, refusal));
}

/** Where an answer can end instead of a JSON reply: the last event of an SSE stream. */
export interface AnswerStream {
  end(json?: string): void;
}

/**
 * Writes the engine's answers to requests, the same way in both eras: a JSON response (status,
 * error headers, body whole or in pieces) or the last event of a stream. Only the status of an
 * error differs by era: the writer asks its endpoint's era codec (core's `EraCodec.errorStatus`).
 */
export class AnswerWriter {
  /** How a request's JSON answer is encoded: large pages and long texts in pieces, written straight to the socket. */
  private readonly answerEncoding: BodyEncoding & { piecesFrom: number };

  constructor(
    /** The codec of the endpoint's era, which gives an error response its status (the same for every revision of an era). */
    private readonly codec: EraCodec,
    /** Answers of this many bytes or more are written straight to the socket (direct-answer.ts). */
    directWriteBytes: number,
    /** On a protected endpoint: the `WWW-Authenticate` value of a guard's 403. */
    private readonly challenge?: (error: JsonRpcErrorObject) => string,
  ) {
    this.answerEncoding = { body: true, piecesFrom: directWriteBytes };
  }

  /**
   * A request's JSON answer: 200, or its error's status (where it arose: `origin`) and headers; a
   * result JSON cannot hold becomes -32603 for its id (200).
   */
  json(reply: FastifyReply, exchange: ExchangeRecord, logger: Logger, response: EngineResponse, origin: ErrorOrigin = 'handler'): FastifyReply {
    let status = RESULT_STATUS;
    if (isErrorResponse(response)) {
      exchange.errorCode = response.error.code;
      status = this.codec.errorStatus(response.error.code, origin);
      const headers = errorHeaders(response.error, this.challenge);
      if (headers) reply.headers(headers);
    }
    const body = encodeMessage(response, this.answerEncoding, (error) => {
      logUnserializable(logger, error);
      exchange.errorCode = -32603;
      status = RESULT_STATUS;
    });
    return sendAnswerBody(reply, status, body);
  }

  /** A message of ours with a status of its own (an error before routing, the initialize result); one JSON cannot hold is logged and becomes -32603. */
  message(reply: FastifyReply, status: number, message: EngineResponse, logger: Logger): FastifyReply {
    return reply
      .code(status)
      .type(JSON_TYPE)
      .send(encodeMessage(message, AS_BODY, (error) => logUnserializable(logger, error)));
  }

  /** A request's answer as a stream's last event; a result JSON cannot hold becomes -32603 for its id (logged). */
  lastEvent(exchange: ExchangeRecord, logger: Logger, response: EngineResponse, encoding?: TextEncoding): string {
    if (isErrorResponse(response)) exchange.errorCode = response.error.code;
    return encodeMessage(response, encoding, (error) => {
      logUnserializable(logger, error);
      exchange.errorCode = -32603;
    });
  }

  /** Answers a request cut off by shutdown or a crash: the last event of its stream, or JSON while its reply is unsent. */
  cutOff(exchange: ExchangeRecord, message: JsonRpcErrorResponse, reply: FastifyReply | undefined, stream: AnswerStream | undefined): void {
    exchange.errorCode = message.error.code;
    if (stream) stream.end(encodeMessage(message, undefined, noop));
    else if (reply && !reply.sent) sendJson(reply, this.codec.errorStatus(message.error.code, 'handler'), message);
  }

  /** The HTTP status of an error response with `code` that arose at `origin`, as the era's codec says. */
  errorStatus(code: number, origin: ErrorOrigin): number {
    return this.codec.errorStatus(code, origin);
  }
}
