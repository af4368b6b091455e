import type { McpProtocolError } from '@decorum/core';

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

/** One request in a {@link RunningRequests} list: what it answers with, and its links. */
export interface RunningEntry<K, A> {
  readonly key: K;
  readonly answer: A;
  /** False once removed (answered at shutdown, or done): removing it again does nothing. */
  linked: boolean;
  previous: RunningEntry<K, A> | undefined;
  next: RunningEntry<K, A> | undefined;
}

/**
 * The requests an endpoint is running, as a doubly linked list whose entries the requests keep:
 * adding and removing one is a few stores, with no hash and no table to grow or rehash. A `Map`
 * keyed by the exchange did the same job and cost ~9 % of the tools/call throughput at 64
 * connections (bench, 2026-12-04), far more than its few instructions in a warm loop.
 */
export class RunningRequests<K, A> {
  private first: RunningEntry<K, A> | undefined;

  /** Adds a request; keep the entry to remove it when it is done. */
  add(key: K, answer: A): RunningEntry<K, A> {
    const entry: RunningEntry<K, A> = { key, answer, linked: true, previous: undefined, next: this.first };
    if (this.first) this.first.previous = entry;
    this.first = entry;
    return entry;
  }

  /** Removes a request; true if it was still in the list (false: already answered and taken out). */
  remove(entry: RunningEntry<K, A>): boolean {
    if (!entry.linked) return false;
    entry.linked = false;
    if (entry.previous) entry.previous.next = entry.next;
    else this.first = entry.next;
    if (entry.next) entry.next.previous = entry.previous;
    entry.previous = entry.next = undefined;
    return true;
  }

  /** Takes every request out of the list and returns them (the most recent first). */
  takeAll(): Array<RunningEntry<K, A>> {
    const all: Array<RunningEntry<K, A>> = [];
    for (let entry = this.first; entry; entry = entry.next) all.push(entry);
    for (const entry of all) {
      entry.linked = false;
      entry.previous = entry.next = undefined;
    }
    this.first = undefined;
    return all;
  }
}
