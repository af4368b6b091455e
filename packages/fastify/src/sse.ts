import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** One SSE event: `data:` lines (one per line of the payload) and a blank line; no `id:`, no `retry:`. */
export function sseEvent(json: string): string {
  // Compact JSON has no raw line breaks; splitting keeps the framing right even if one slipped in.
  return `data: ${json.split(/\r\n|\r|\n/).join('\ndata: ')}\n\n`;
}

/**
 * The SSE response stream of one request: request-related notifications, then the final response,
 * which ends it. Written straight to the socket (the reply is hijacked) so that no `onSend` hook —
 * compression, say — buffers events. Once the client has gone, nothing more is written.
 */
export class SseStream {
  private keepAlive: NodeJS.Timeout | undefined;

  constructor(private readonly res: ServerResponse) {
    res.once('close', () => this.stopKeepAlive());
  }

  /** True while events can still be written. */
  get writable(): boolean {
    return !this.res.destroyed && !this.res.writableEnded;
  }

  /**
   * Sends the status line and headers now, so the client sees the stream open before any event.
   * With `keepAliveMs` > 0 a comment line is written at that interval while the handler is quiet, so
   * that proxies and client idle timeouts do not close a long-running request's stream.
   */
  open(headers: OutgoingHttpHeaders, keepAliveMs = 0): void {
    this.res.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      // Tells nginx-style proxies not to buffer the stream (spec SHOULD).
      'x-accel-buffering': 'no',
    });
    this.res.flushHeaders();
    if (keepAliveMs > 0) {
      // No comment while the socket is backed up: a client that stops reading must not grow the buffer.
      this.keepAlive = setInterval(() => this.writable && !this.res.writableNeedDrain && this.res.write(': keep-alive\n\n'), keepAliveMs);
      this.keepAlive.unref();
    }
  }

  private stopKeepAlive(): void {
    if (this.keepAlive) clearInterval(this.keepAlive);
    this.keepAlive = undefined;
  }

  send(json: string): void {
    if (this.writable) this.res.write(sseEvent(json));
  }

  /** Writes the final message (if any) and ends the stream. */
  end(json?: string): void {
    this.stopKeepAlive();
    if (!this.writable) return;
    this.res.end(json === undefined ? undefined : sseEvent(json));
  }
}
