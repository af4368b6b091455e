import type { RateLimitStore } from '../pipeline/rate-limit/store.js';
import type { TaskStore } from '../extensions/tasks/task-store.js';
import type { LiveChange, LiveEvent } from './events.js';

/** Why a subscriber stopped receiving events. */
export type SubscriberEnd =
  /** The subscriber itself closed (client cancelled, stream closed). */
  | { readonly reason: 'closed' }
  /** The bus shut down gracefully (server shutdown): listens answer with their closing result. */
  | { readonly reason: 'shutdown' }
  /** The subscriber did not drain: its queue reached the limit and it was cut off. */
  | { readonly reason: 'overflow'; readonly error: Error };

/**
 * Where one subscriber's events go. `deliver` hands one event to the transport and says whether it
 * can take more now (`false` = backpressure, like `Writable.write`); the bus then waits for
 * `onDrain` before delivering again, queueing at most the subscriber's limit meanwhile.
 */
export interface SubscriberSink {
  /** Whether this subscriber opted into the event (checked before queueing). */
  wants(event: LiveEvent): boolean;
  /** Hands one event to the transport; `false` when it cannot take more until `onDrain` fires. */
  deliver(event: LiveEvent): boolean;
  /** Registers a one-shot callback for when the transport can take more again. */
  onDrain(listener: () => void): void;
}

/** One subscriber's handle on the bus. */
export interface BusSubscription {
  /** Resolves once the subscription has ended, with why. */
  readonly ended: Promise<SubscriberEnd>;
  /** Events waiting for the transport to drain. */
  readonly queued: number;
  /** Unsubscribes (reason `closed`); idempotent. */
  close(): void;
}

/** Options of {@link NotificationBus.subscribe}. */
export interface SubscribeOptions {
  /** Events a subscriber may have waiting before it is cut off (default {@link DEFAULT_QUEUE_LIMIT}). */
  readonly queueLimit?: number;
}

/** Options of {@link NotificationBus.publish}. */
export interface PublishOptions {
  /**
   * Deliver to this instance's subscribers only. The live registry publishes list-changed events
   * so when the bus replicates changes: every instance derives its own from the change it applied.
   */
  readonly local?: boolean;
}

/**
 * Fan-out of change events to the subscribers of this process. An implementation for many
 * instances (Redis, say) publishes events to its channel and delivers what arrives from it to
 * its local subscribers with the same bounded-queue contract; callers see no difference.
 */
export interface NotificationBus {
  /** Publishes one event to every subscriber that wants it (possibly on other instances). */
  publish(event: LiveEvent, options?: PublishOptions): void;
  /** Starts delivering the events `sink` wants to it, at most `queueLimit` queued while it drains. */
  subscribe(sink: SubscriberSink, options?: SubscribeOptions): BusSubscription;
  /** Ends every subscription with reason `shutdown`; later subscriptions end at once. */
  shutdown(): void;
  /** Subscriptions currently open here. */
  readonly size: number;
  /**
   * Buses spanning instances: sends a run-time change made here to every other instance (never
   * back to this one). With it, the live registry replicates its changes and publishes its
   * list-changed events `local`ly.
   */
  replicate?(change: LiveChange): void;
  /** Buses spanning instances: where changes made on other instances are handed to be applied here. */
  onReplicated?(apply: (change: LiveChange) => void): void;
  /**
   * Buses spanning instances: a rate-limit store they share, used by `createServer` when its
   * `rateLimit` option names no `store`, so a caller's budget holds across every instance.
   */
  readonly rateLimitStore?: RateLimitStore;
  /**
   * Buses spanning instances: a task store they share, used by the Tasks extension when `taskStore`
   * is not given, so any instance answers for a task another one runs.
   */
  readonly taskStore?: TaskStore;
}

/** Events a subscriber may have waiting before it is cut off, unless `queueLimit` says otherwise. */
export const DEFAULT_QUEUE_LIMIT = 1000;

class Subscriber implements BusSubscription {
  private readonly queue: LiveEvent[] = [];
  private waitingForDrain = false;
  private done = false;
  private resolveEnded!: (end: SubscriberEnd) => void;
  readonly ended = new Promise<SubscriberEnd>((resolve) => (this.resolveEnded = resolve));

  constructor(
    private readonly sink: SubscriberSink,
    private readonly limit: number,
    private readonly onEnd: (subscriber: Subscriber) => void,
  ) {}

  get queued(): number {
    return this.queue.length;
  }

  offer(event: LiveEvent): void {
    if (this.done || !this.sink.wants(event)) return;
    if (this.queue.length >= this.limit) {
      this.end({ reason: 'overflow', error: new Error(`subscriber cut off: ${this.limit} notifications queued and the client is not reading them`) });
      return;
    }
    this.queue.push(event);
    this.pump();
  }

  private pump(): void {
    while (!this.done && !this.waitingForDrain && this.queue.length > 0) {
      const event = this.queue.shift() as LiveEvent;
      if (!this.sink.deliver(event)) {
        this.waitingForDrain = true;
        this.sink.onDrain(() => {
          this.waitingForDrain = false;
          this.pump();
        });
      }
    }
  }

  end(end: SubscriberEnd): void {
    if (this.done) return;
    this.done = true;
    this.queue.length = 0;
    this.onEnd(this);
    this.resolveEnded(end);
  }

  close(): void {
    this.end({ reason: 'closed' });
  }
}

/** The bus of a single process: synchronous fan-out, a bounded queue per subscriber. */
export class InProcessNotificationBus implements NotificationBus {
  private readonly subscribers = new Set<Subscriber>();
  private stopped = false;

  constructor(private readonly defaults: SubscribeOptions = {}) {}

  get size(): number {
    return this.subscribers.size;
  }

  publish(event: LiveEvent, _options?: PublishOptions): void {
    for (const subscriber of [...this.subscribers]) subscriber.offer(event);
  }

  /** Starts delivering the events `sink` wants to it, at most `queueLimit` queued while it drains. */
  subscribe(sink: SubscriberSink, options: SubscribeOptions = {}): BusSubscription {
    const limit = options.queueLimit ?? this.defaults.queueLimit ?? DEFAULT_QUEUE_LIMIT;
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`queueLimit must be a positive integer (got ${limit})`);
    const subscriber = new Subscriber(sink, limit, (s) => this.subscribers.delete(s));
    if (this.stopped) subscriber.end({ reason: 'shutdown' });
    else this.subscribers.add(subscriber);
    return subscriber;
  }

  shutdown(): void {
    this.stopped = true;
    for (const subscriber of [...this.subscribers]) subscriber.end({ reason: 'shutdown' });
  }
}
