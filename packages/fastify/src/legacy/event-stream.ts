import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { sseEvent } from '../sse.js';
import { KeptEvent, type ReplayStream, type ReplayWindow } from './replay-window.js';

/** How long a client waits before reconnecting a closed stream (the SSE `retry` field), in ms. */
const RETRY_MS = 1000;

/**
 * One SSE stream of a legacy session (a POST's response stream, or the standalone GET stream),
 * resumable as the 2025-11-25 transport describes: every event has an id `<stream>_<seq>`, its
 * events are kept in the session's bounded {@link ReplayWindow}, and a client that reconnects with
 * `Last-Event-ID` gets what came after it — on this stream only — and then the rest as it happens.
 */
export class EventStream implements ReplayStream {
  private seq = 0;
  /** The last seq written to a connected client. */
  private written = 0;
  /** This stream's kept events, oldest first (each also linked in the session's window). */
  private readonly history: KeptEvent[] = [];
  /** The highest seq no longer kept (acknowledged, or out of the window): a resumption before it would miss events. */
  private forgotten = 0;
  private res: ServerResponse | undefined;
  private keepAlive: NodeJS.Timeout | undefined;
  /** True once the stream's last message (a POST's response) was sent. */
  ended = false;

  constructor(
    readonly id: string,
    private readonly window: ReplayWindow,
    private readonly keepAliveMs: number,
  ) {}

  /** True while a client is connected to it. */
  get attached(): boolean {
    return this.res !== undefined && !this.res.destroyed && !this.res.writableEnded;
  }

  /** True when every event after `seq` is still kept, so that a resumption from there misses nothing. */
  canResumeAfter(seq: number): boolean {
    return seq >= this.forgotten;
  }

  /**
   * Connects a client: status and headers, a priming event (an id and no data, so that the client
   * can resume from there), then whatever it missed after `afterSeq` (default: what no client saw
   * yet). The priming event names that point, so event ids never go back. A `Last-Event-ID`
   * (`afterSeq`) acknowledges the events up to it: they are no longer kept. A connection still
   * open (a client resuming what it takes for lost) is ended: one connection per stream. A stream
   * that has already ended is closed after the replay.
   */
  attach(res: ServerResponse, headers: OutgoingHttpHeaders, afterSeq?: number): void {
    this.close();
    const after = Math.min(afterSeq ?? this.written, this.seq);
    if (afterSeq !== undefined) this.acknowledge(after);
    res.writeHead(200, { ...headers, 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
    res.write(`id: ${this.id}_${after}\nretry: ${RETRY_MS}\ndata: \n\n`);
    for (const event of this.history) if (event.seq > after) res.write(event.frame);
    this.written = this.seq;
    if (this.ended) {
      res.end();
      return;
    }
    this.res = res;
    res.once('close', () => {
      if (this.res === res) this.detach();
    });
    if (this.keepAliveMs > 0) {
      this.keepAlive = setInterval(() => this.attached && !res.writableNeedDrain && res.write(': keep-alive\n\n'), this.keepAliveMs);
      this.keepAlive.unref();
    }
  }

  /** Sends one message (kept for replay); written at once when a client is connected. */
  send(json: string): void {
    const seq = ++this.seq;
    const frame = `id: ${this.id}_${seq}\n${sseEvent(json)}`;
    const event = new KeptEvent(this, seq, frame);
    if (this.window.keep(event)) this.history.push(event);
    else this.forgotten = seq;
    if (this.attached) {
      this.res!.write(frame);
      this.written = seq;
    }
  }

  /** See {@link ReplayStream.evicted}: the window always takes a stream's oldest event. */
  evicted(event: KeptEvent): void {
    this.history.shift();
    this.forgotten = Math.max(this.forgotten, event.seq);
  }

  /** Lets every kept event go (the session no longer keeps this stream). */
  forget(): void {
    for (const event of this.history) this.window.remove(event);
    this.forgotten = this.seq;
    this.history.length = 0;
  }

  /** Lets the events up to `seq` go: the client has them (a later `Last-Event-ID` says so). */
  private acknowledge(seq: number): void {
    while (this.history.length > 0 && this.history[0].seq <= seq) {
      this.window.remove(this.history.shift()!);
    }
    this.forgotten = Math.max(this.forgotten, seq);
  }

  /** Sends the last message (if any) and closes the stream. */
  end(json?: string): void {
    if (json !== undefined) this.send(json);
    this.ended = true;
    const res = this.res;
    this.detach();
    res?.end();
  }

  /** Forgets the connected client (it went away); the stream lives on for a resumption. */
  detach(): void {
    if (this.keepAlive) clearInterval(this.keepAlive);
    this.keepAlive = undefined;
    this.res = undefined;
  }

  /** Closes the connection, if any (the session ended). */
  close(): void {
    const res = this.res;
    this.detach();
    res?.end();
  }
}

/** Reads `Last-Event-ID` as the stream id and seq it names, or `undefined` when it is not ours. */
export function parseEventId(value: string | undefined): { stream: string; seq: number } | undefined {
  const match = value === undefined ? null : /^(.+)_(\d{1,15})$/.exec(value);
  return match ? { stream: match[1], seq: Number(match[2]) } : undefined;
}
