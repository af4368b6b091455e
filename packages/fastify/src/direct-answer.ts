import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { LongTextJson, type AnswerBody, type PageAnswerBytes } from '@decorum/core/transport';
import type { FastifyReply } from 'fastify';
import { JSON_TYPE } from './headers/accept.js';
import { TextBuffers } from './text-buffers.js';

/**
 * Large JSON answers written straight to the socket, in pieces, instead of through Fastify's
 * `reply.send` (which takes one body): a pre-serialized list page, and a result with a long text
 * (the pieces `encodeMessage` gives with a `piecesFrom` of `directWriteBytes`). The reply is hijacked, as for
 * an SSE stream: the headers that hooks set are kept and `onResponse` hooks run, but `onSend` hooks
 * do not see the body (`directWriteBytes: Infinity` sends every answer through `reply.send`).
 */

/** Sends a JSON answer's body: a whole one through `reply.send`, one in pieces straight to the socket. */
export function sendAnswerBody(reply: FastifyReply, status: number, body: AnswerBody): FastifyReply {
  if (typeof body === 'string' || Buffer.isBuffer(body)) return reply.code(status).type(JSON_TYPE).send(body);
  if (body instanceof LongTextJson) writeLongText(reply, status, body);
  else writePage(reply, status, body);
  return reply;
}

/**
 * A pre-serialized page in its three pieces (envelope head, the page's shared bytes, closing
 * brace). Through `reply.send` the page would be copied into a new buffer per request, and buffers
 * of a large list's size, freed only when the garbage collector finds them, made the allocator fault
 * their pages in again (docs/perf-notes.md, "Figures behind source comments").
 */
function writePage(reply: FastifyReply, status: number, [head, page, tail]: PageAnswerBytes): void {
  const res = writeHead(reply, status, head.length + page.length + tail.length);
  res.write(head);
  res.write(page);
  res.end(tail);
}

/** The buffers long texts are copied into, shared by the process's endpoints. */
const textBuffers = new TextBuffers();

/**
 * A result with a long text: the text copied into a reused buffer (it is ASCII: a copy, not a
 * UTF-8 encoding) between head and tail, so that it is never joined into one message string and
 * its length is known without counting (Fastify measures a string body's UTF-8 length).
 */
function writeLongText(reply: FastifyReply, status: number, body: LongTextJson): void {
  const res = writeHead(reply, status, body.byteLength);
  res.write(body.head);
  const buffer = textBuffers.take(body.text);
  if (buffer === undefined) {
    res.write(body.text, 'latin1');
  } else {
    res.write(buffer.subarray(0, body.text.length));
    // Only a finished response's bytes are known to have left; a buffer of one cut short is not reused.
    res.once('finish', () => textBuffers.give(buffer));
  }
  res.end(body.tail);
}

/** Hijacks the reply and writes its head (with the hooks' headers), corked: the pieces that follow leave with it in one writev when `end` uncorks. */
function writeHead(reply: FastifyReply, status: number, contentLength: number): ServerResponse {
  reply.hijack();
  const res = reply.raw;
  const headers = reply.getHeaders() as OutgoingHttpHeaders;
  headers['content-type'] = JSON_TYPE;
  headers['content-length'] = contentLength;
  res.writeHead(status, headers);
  res.cork();
  return res;
}
