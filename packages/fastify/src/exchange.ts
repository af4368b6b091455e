import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { FastifyRequest } from 'fastify';
import type { AuthInfo } from '@decorum/core';
import type { Cancellation } from '@decorum/core/transport';
import type { AcceptedResponses } from './headers/accept.js';
import type { ExchangeRecord } from './request-log.js';

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

/**
 * Where a request's {@link Exchange} lives: a property of Node's response, not a WeakMap entry per
 * request, and not a request decoration. Fastify gives a context that decorates its request a class
 * of its own, so every `mcpPlugin` on an app would add one, and the code all endpoints share (Fastify's
 * and ours) would see as many request shapes, and run slower once an app serves several endpoints
 * (docs/perf-notes.md, "Figures behind source comments"). Undecorated, every endpoint keeps the app's class.
 */
const EXCHANGE = 'mcpExchange';
export type ResponseWithExchange = ServerResponse & { [EXCHANGE]: Exchange };

/** The exchange the endpoint's `onRequest` hook opened for this reply's request. */
export function exchangeOf(reply: FastifyReply): Exchange {
  return (reply.raw as ResponseWithExchange)[EXCHANGE];
}

/**
 * Ends an exchange when its response closes. One shared listener (`this` is the response) rather
 * than a closure per request; 'close' without 'finish' means the client went away first.
 */
export function onResponseClose(this: ResponseWithExchange): void {
  const exchange = this[EXCHANGE];
  if (!this.writableFinished) {
    exchange.cancelled = true;
    exchange.cancellation.cancel();
  }
  exchange.onClose?.(exchange);
}

/**
 * Follows the response's 'close' for its exchange from now on (at once should it have closed
 * already). A POST answered in the turn its body arrived in has nothing to cancel, so it is
 * followed only once its answer waits: deferred to a batch, or a promise. Node then finds no
 * listener to call when the response closes (docs/perf-notes.md, "One connection: a shorter path").
 */
export function followClose(reply: FastifyReply): void {
  const res = reply.raw as ResponseWithExchange;
  if (res.closed) onResponseClose.call(res);
  else res.on('close', onResponseClose);
}

/** Keeps a request's exchange on its response (see {@link exchangeOf}). */
export function attachExchange(reply: FastifyReply, exchange: Exchange): ResponseWithExchange {
  const res = reply.raw as ResponseWithExchange;
  res[EXCHANGE] = exchange;
  return res;
}
