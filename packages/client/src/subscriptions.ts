import { McpProtocolError, type JsonObject, type JsonRpcNotification } from '@decorum/core';
import { SubscriptionEndedError } from './errors.js';

/** What to watch (L-01): list changes and resource URIs. */
export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

/** One change a subscription delivers; `reconnected` says changes may have been missed (L-11): re-fetch. */
export type ChangeEvent =
  | { type: 'tools/list_changed' }
  | { type: 'prompts/list_changed' }
  | { type: 'resources/list_changed' }
  | { type: 'resources/updated'; uri: string }
  | { type: 'reconnected' };

/** The change event a notification carries, if it is one this filter asked for. */
export function changeOf(notification: JsonRpcNotification, filter: SubscriptionFilter): ChangeEvent | undefined {
  switch (notification.method) {
    case 'notifications/tools/list_changed':
      return filter.toolsListChanged ? { type: 'tools/list_changed' } : undefined;
    case 'notifications/prompts/list_changed':
      return filter.promptsListChanged ? { type: 'prompts/list_changed' } : undefined;
    case 'notifications/resources/list_changed':
      return filter.resourcesListChanged ? { type: 'resources/list_changed' } : undefined;
    case 'notifications/resources/updated': {
      const uri = (notification.params as JsonObject | undefined)?.uri;
      if (typeof uri !== 'string') return undefined;
      const watched = filter.resourceSubscriptions ?? [];
      return watched.some((w) => uri === w || uri.startsWith(w)) ? { type: 'resources/updated', uri } : undefined;
    }
    default:
      return undefined;
  }
}

/** How a subscription reaches its server: one listen round (modern) or legacy subscribe/unsubscribe. */
export interface ListenSource {
  /**
   * Modern: one `subscriptions/listen` request, resolving when it ends (the server closed it) and
   * rejecting when the connection dropped. `onAck` gets the honoured filter. `onResumed` is for a
   * stream that reconnects by itself while the listen goes on (the legacy session's GET stream).
   */
  listen(
    filter: SubscriptionFilter,
    signal: AbortSignal,
    onAck: (honoured: SubscriptionFilter) => void,
    onChange: (notification: JsonRpcNotification) => void,
    onResumed: () => void,
  ): Promise<void>;
  /** True once the connection is gone for good: no point listening again. */
  gone(): boolean;
  /** The stream is back after a drop: what `filter` watches may have changed unseen meanwhile. */
  resumed(filter: SubscriptionFilter): void;
}

/** How a {@link Subscription} behaves when its stream drops. */
export interface SubscriptionOptions {
  /**
   * Listen again after the stream drops or the connection fails (default true), with backoff
   * from 100 ms to 5 s. A JSON-RPC error answer is never retried: it ends the subscription.
   */
  reconnect?: boolean;
}

/**
 * A live subscription as an async iterable of {@link ChangeEvent}s. It re-listens when the
 * stream drops (yielding `reconnected` first, since changes may have been missed; the client's
 * cached results of what it watches are dropped then too; a legacy session's GET stream
 * reconnects by itself and yields the same), and ends when
 * closed, when the server ends it gracefully, or with the error that stopped it. A server that
 * refuses it (a JSON-RPC error to `subscriptions/listen`, or to a legacy `resources/subscribe` of
 * any watched URI) ends it with that error at once: {@link Subscription.acknowledged} rejects with it, and so
 * does the iteration.
 */
export class Subscription implements AsyncIterable<ChangeEvent> {
  private readonly queue: ChangeEvent[] = [];
  private waiter: (() => void) | undefined;
  private ended = false;
  private failure: Error | undefined;
  private readonly controller = new AbortController();
  private ackResolve!: (filter: SubscriptionFilter) => void;
  private ackReject!: (error: Error) => void;
  /** The filter the server honoured (the first acknowledgement); a {@link SubscriptionEndedError} when it ended before one. */
  readonly acknowledged: Promise<SubscriptionFilter>;

  constructor(
    private readonly source: ListenSource,
    readonly filter: SubscriptionFilter,
    private readonly options: SubscriptionOptions = {},
  ) {
    this.acknowledged = new Promise((resolve, reject) => {
      this.ackResolve = resolve;
      this.ackReject = reject;
    });
    this.acknowledged.catch(() => {});
    void this.run();
  }

  private async run(): Promise<void> {
    let delay = 100;
    const reconnected = () => {
      this.source.resumed(this.filter);
      this.push({ type: 'reconnected' });
    };
    for (let attempt = 0; !this.controller.signal.aborted; attempt++) {
      try {
        await this.source.listen(
          this.filter,
          this.controller.signal,
          (honoured) => {
            delay = 100;
            this.ackResolve(honoured);
            if (attempt > 0) reconnected();
          },
          (notification) => {
            const change = changeOf(notification, this.filter);
            if (change) this.push(change);
          },
          reconnected,
        );
        // The server ended the subscription gracefully (L-10): nothing more will come.
        break;
      } catch (error) {
        if (this.controller.signal.aborted) break;
        // A JSON-RPC error is the server's final answer (a refused URI, an unknown method): asking again gets the same.
        if (this.options.reconnect === false || this.source.gone() || error instanceof McpProtocolError) {
          this.finish(error as Error);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, delay).unref());
        delay = Math.min(delay * 2, 5000);
      }
    }
    this.finish(undefined);
  }

  private push(event: ChangeEvent): void {
    this.queue.push(event);
    this.wake();
  }

  private finish(error: Error | undefined): void {
    if (this.ended) return;
    this.ended = true;
    this.failure = error;
    this.ackReject(error ?? new SubscriptionEndedError());
    this.wake();
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.();
  }

  /** Ends the subscription (HTTP: closes the stream; stdio: `notifications/cancelled`). */
  async close(): Promise<void> {
    this.controller.abort();
    this.finish(undefined);
  }

  /** Yields each change until the subscription ends (closed, ended by the server, or failed). */
  async *[Symbol.asyncIterator](): AsyncIterator<ChangeEvent> {
    try {
      for (;;) {
        if (this.queue.length > 0) {
          yield this.queue.shift()!;
          continue;
        }
        if (this.ended) {
          if (this.failure) throw this.failure;
          return;
        }
        await new Promise<void>((resolve) => (this.waiter = resolve));
      }
    } finally {
      if (!this.ended) await this.close();
    }
  }
}
