import type { McpProtocolError } from '@decorum/core';
import { ListEntry } from '@decorum/transport-kit';

/** Something that can answer the requests it is running (an endpoint). */
export interface AnswersRunning {
  answerRunning(error: () => McpProtocolError): void;
}

// Endpoints per HTTP server: every Fastify context of an app shares its `server`, so `serveHttp`
// (which holds the root app) reaches endpoints registered in any context.
const endpointsByServer = new WeakMap<object, Set<AnswersRunning>>();

/** Registers an endpoint of the app listening on `server`. */
export function trackEndpoint(server: object, endpoint: AnswersRunning): void {
  let endpoints = endpointsByServer.get(server);
  if (!endpoints) endpointsByServer.set(server, (endpoints = new Set()));
  endpoints.add(endpoint);
}

/**
 * Answers every request still running on the app's MCP endpoints with `error` (a JSON answer, or
 * the last event of its SSE stream) and cancels it: at the end of the shutdown grace period, and
 * after an uncaught exception, before connections are cut.
 */
export function answerRunningRequests(server: object, error: () => McpProtocolError): void {
  for (const endpoint of endpointsByServer.get(server) ?? []) endpoint.answerRunning(error);
}

/**
 * A request an endpoint is running, with where its answer goes (a JSON reply or an SSE stream): an
 * entry of the endpoint's `LinkedList` of running requests, which the request keeps so that
 * it takes itself out when it is done.
 */
export class RunningRequest<K, A> extends ListEntry<RunningRequest<K, A>> {
  constructor(
    readonly key: K,
    readonly answer: A,
  ) {
    super();
  }
}
