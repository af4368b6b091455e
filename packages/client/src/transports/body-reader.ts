import { createParser } from 'eventsource-parser';
import { MessageTooLargeError } from '../errors.js';

/** Reads a whole response body as text, failing as soon as it passes `maxBytes`. */
export async function readBodyText(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<string> {
  if (!body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new MessageTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Where an SSE stream stopped (its last event id) and how long the server asked to wait before resuming. */
export interface StreamCursor {
  lastEventId?: string;
  retryMs?: number;
}

/**
 * Reads a `text/event-stream` body (H-12: one JSON-RPC message per `data:` event) and hands
 * each event's data to `onData` until it returns true (the final answer arrived: the stream is
 * closed) or the body ends. A single event larger than `maxBytes` fails the read. `cursor`, when
 * given, keeps the last event id and the server's `retry` delay, for resuming the stream.
 */
export async function readEventStream(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  onData: (data: string) => boolean,
  cursor?: StreamCursor,
): Promise<void> {
  if (!body) return;
  let finished = false;
  let sinceEvent = 0;
  const parser = createParser({
    onRetry(ms) {
      if (cursor) cursor.retryMs = ms;
    },
    onEvent(event) {
      sinceEvent = 0;
      if (cursor && event.id !== undefined) cursor.lastEventId = event.id;
      if (!finished && event.data) finished = onData(event.data);
    },
  });
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  try {
    while (!finished) {
      const { done, value } = await reader.read();
      if (done) return;
      sinceEvent += Buffer.byteLength(value);
      if (sinceEvent > maxBytes) throw new MessageTooLargeError(maxBytes);
      parser.feed(value);
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
