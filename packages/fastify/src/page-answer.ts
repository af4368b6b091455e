import type { OutgoingHttpHeaders } from 'node:http';
import { pageAnswerBytes, type EngineResponse } from '@decorum/core/transport';
import type { FastifyReply } from 'fastify';
import { JSON_TYPE } from './accept.js';

/**
 * Writes an answer whose result is a pre-serialized page of at least `minBytes` straight to the
 * socket, in its three pieces (envelope head, the page's shared bytes, closing brace): true when
 * it did. Fastify's `reply.send` takes one body, so the page would be copied into a new buffer
 * per request — for the bench's 160 KB list, ~30 % of the server's user CPU time per request, and buffers
 * of that size, freed only when the garbage collector finds them, made the allocator fault their
 * pages in again. The reply is hijacked, as for an SSE stream: the headers that hooks set are kept
 * and `onResponse` hooks run, but `onSend` hooks do not see the body (`directWriteBytes: Infinity`
 * sends every answer through `reply.send`).
 */
export function writePageDirectly(reply: FastifyReply, status: number, response: EngineResponse, minBytes: number): boolean {
  const pieces = pageAnswerBytes(response, minBytes);
  if (pieces === undefined) return false;
  const [head, page, tail] = pieces;
  reply.hijack();
  const res = reply.raw;
  const headers = reply.getHeaders() as OutgoingHttpHeaders;
  headers['content-type'] = JSON_TYPE;
  headers['content-length'] = head.length + page.length + tail.length;
  res.writeHead(status, headers);
  // Corked until `end` (which uncorks): the head and the three pieces leave in one writev.
  res.cork();
  res.write(head);
  res.write(page);
  res.end(tail);
  return true;
}
