import { randomUUID } from 'node:crypto';
import {
  DecorumStartupError,
  InProcessNotificationBus,
  StartupErrorCode,
  type BusSubscription,
  type LiveChange,
  type LiveEvent,
  type Logger,
  type NotificationBus,
  type PublishOptions,
  type SubscribeOptions,
  type SubscriberSink,
} from '@decorum/core';
import { createDefaultLogger } from '@decorum/core/transport';
import { Redis, type RedisOptions } from 'ioredis';
import { encodeMessage, parseMessage, type BusMessage } from './bus-message.js';
import { Outbox, type Pending } from './outbox.js';
import { RedisRateLimitStore } from './redis-rate-limit-store.js';
import { RedisTaskStore } from './redis-task-store.js';
import { SeenSequences } from './seen-sequences.js';

/** Options of {@link RedisNotificationBus}. */
export interface RedisBusOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://…` (TLS). Default `redis://127.0.0.1:6379`. */
  url?: string;
  /** More ioredis options for both connections (TLS, auth, timeouts…); the bus sets its own reconnect and queueing. */
  redis?: Omit<RedisOptions, 'retryStrategy' | 'enableOfflineQueue' | 'autoResubscribe' | 'lazyConnect'>;
  /** The pub/sub channel shared by the instances of one deployment (default `decorum:live`). */
  channel?: string;
  /** Messages kept while Redis is away; past it new ones are dropped, logged and counted (default 1,000). */
  bufferLimit?: number;
  /**
   * Messages kept in Redis (a capped list beside the channel) for instances that reconnect to
   * catch up on what they missed (default 1,000); the list expires `replayTtlMs` after the last one.
   */
  replayLimit?: number;
  /** How long the catch-up list outlives its last message (default 1 h). */
  replayTtlMs?: number;
  /** Reconnect backoff: the first delay, doubled per failed attempt up to `maxDelayMs` (defaults 100 ms, 2 s), plus jitter. */
  retry?: { minDelayMs?: number; maxDelayMs?: number };
  /** Events a local subscriber may have queued before it is cut off (default 1,000). */
  queueLimit?: number;
  /** Where connection changes, drops and ignored messages are logged (default: core's logger). */
  logger?: Logger;
  /** Prefix of the shared task store's keys and channel (default `<channel>:tasks:`). */
  taskKeyPrefix?: string;
  /** How long a task store operation may take before it fails (default 2,000 ms). */
  taskTimeoutMs?: number;
  /** Prefix of the shared rate-limit counters' keys (default `<channel>:rate:`, so deployments on one Redis stay apart). */
  rateLimitKeyPrefix?: string;
  /** How long a shared rate-limit count may take before it is made in this instance's memory instead (default 200 ms). */
  rateLimitTimeoutMs?: number;
}

/** What the bus is doing, for health checks and tests. */
export interface RedisBusStats {
  /** This instance's id, carried by every message it sends. */
  readonly instanceId: string;
  /** Subscribed to the channel and able to publish. */
  readonly connected: boolean;
  /** Messages waiting for Redis to come back. */
  readonly buffered: number;
  /** Messages dropped since start-up because the buffer was full. */
  readonly dropped: number;
  /** Messages received during a catch-up, waiting for it to finish. */
  readonly held: number;
  /** Sending instances whose sequence is remembered (bounded). */
  readonly knownInstances: number;
}

const DEFAULT_URL = 'redis://127.0.0.1:6379';
/** Messages that may arrive during one catch-up; past it they are applied at once (order may suffer, nothing grows). */
const HELD_LIMIT = 10_000;

function positive(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1)
    throw new DecorumStartupError(StartupErrorCode.INVALID_NUMBER, `RedisNotificationBus: ${name} must be a positive integer (got ${value})`);
  return value;
}

/** `host:port` of a Redis URL, for logs (never its credentials). */
function where(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new DecorumStartupError(
      StartupErrorCode.INVALID_ADDRESS,
      `RedisNotificationBus: the bus URL must start with redis:// or rediss:// (got ${parsed.protocol}//…)`,
    );
  }
  return `${parsed.hostname}:${parsed.port || 6379}`;
}

/**
 * A {@link NotificationBus} shared by every instance of a deployment through Redis pub/sub.
 *
 * - Events published here are delivered to this instance's subscribers at once, and sent on the
 *   channel to the other instances, which deliver them to theirs (each tagged by its own listen).
 * - Run-time changes (`live.tools.disable(…)`, …) are replicated: each instance applies them and
 *   publishes its own list-changed events, so a client that re-lists sees the same list anywhere.
 * - While Redis is away the instance keeps serving: messages queue (up to `bufferLimit`, then
 *   dropped, logged and counted), the connections retry with backoff, and on reconnect the queue
 *   is flushed and the instance catches up on what others sent meanwhile (a capped replay list).
 *
 * ```ts
 * const bus = new RedisNotificationBus({ url: process.env.DECORUM_BUS_URL });
 * await app.register(mcpPlugin, { servers: [Ops], notificationBus: bus });
 * ```
 */
export class RedisNotificationBus implements NotificationBus {
  /** This instance's id: it ignores its own messages when they come back on the channel. */
  readonly instanceId = randomUUID();
  private readonly local: InProcessNotificationBus;
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly channel: string;
  private readonly replayKey: string;
  private readonly replayLimit: number;
  private readonly replayTtlMs: number;
  private readonly outbox: Outbox;
  private readonly seen = new SeenSequences();
  private readonly replicaHandlers: Array<(change: LiveChange) => void> = [];
  private readonly logger: Logger;
  private readonly address: string;
  private seq = 0;
  private subscribed = false;
  /** Whether this instance has noted what the replay list held when it first joined (history is not replayed). */
  private baselined = false;
  /** Bumped on every (re)subscription: a catch-up of an older connection stops where it is. */
  private generation = 0;
  private held: BusMessage[] | undefined;
  private publisherUp!: { promise: Promise<void>; resolve: () => void; settled: boolean };
  private outage = { logged: false, droppedBefore: 0 };
  private closed = false;
  private resolveReady!: () => void;
  private store: RedisRateLimitStore | undefined;
  private tasks: RedisTaskStore | undefined;
  private readonly taskKeyPrefix: string;
  private readonly taskTimeoutMs: number | undefined;
  private readonly rateLimitKeyPrefix: string;
  private readonly rateLimitTimeoutMs: number | undefined;
  private readonly baseLogger: Logger;
  private readonly readyPromise = new Promise<void>((resolve) => (this.resolveReady = resolve));

  constructor(options: RedisBusOptions = {}) {
    const url = options.url ?? DEFAULT_URL;
    this.address = where(url);
    this.channel = options.channel ?? 'decorum:live';
    this.replayKey = `${this.channel}:replay`;
    this.rateLimitKeyPrefix = options.rateLimitKeyPrefix ?? `${this.channel}:rate:`;
    this.taskKeyPrefix = options.taskKeyPrefix ?? `${this.channel}:tasks:`;
    this.taskTimeoutMs = options.taskTimeoutMs === undefined ? undefined : positive('taskTimeoutMs', options.taskTimeoutMs);
    this.rateLimitTimeoutMs = options.rateLimitTimeoutMs === undefined ? undefined : positive('rateLimitTimeoutMs', options.rateLimitTimeoutMs);
    this.replayLimit = positive('replayLimit', options.replayLimit ?? 1000);
    this.replayTtlMs = positive('replayTtlMs', options.replayTtlMs ?? 3_600_000);
    this.outbox = new Outbox(positive('bufferLimit', options.bufferLimit ?? 1000));
    this.local = new InProcessNotificationBus({ queueLimit: options.queueLimit });
    this.baseLogger = options.logger ?? createDefaultLogger();
    this.logger = this.baseLogger.child({ component: 'redis-bus', redis: this.address, instanceId: this.instanceId });
    const minDelay = positive('retry.minDelayMs', options.retry?.minDelayMs ?? 100);
    const maxDelay = positive('retry.maxDelayMs', options.retry?.maxDelayMs ?? 2000);
    const connection: RedisOptions = {
      ...options.redis,
      // Commands never wait in ioredis's own (unbounded) queue: the bus buffers, bounded.
      enableOfflineQueue: false,
      autoResubscribe: false,
      maxRetriesPerRequest: 1,
      retryStrategy: (times) => Math.min(minDelay * 2 ** Math.min(times - 1, 20), maxDelay) + Math.floor(Math.random() * minDelay),
    };
    this.resetPublisherUp();
    this.publisher = new Redis(url, { ...connection, connectionName: `decorum-bus-pub-${this.instanceId}` });
    this.subscriber = new Redis(url, { ...connection, connectionName: `decorum-bus-sub-${this.instanceId}` });
    this.publisher.on('ready', () => this.onPublisherReady());
    this.publisher.on('close', () => {
      this.resetPublisherUp();
      this.onUnavailable('publisher', 'connection closed');
    });
    this.subscriber.on('ready', () => void this.onSubscriberReady());
    this.subscriber.on('close', () => this.onSubscriberClose());
    this.subscriber.on('message', (channel: string, text: string) => {
      // The connection also carries the task store's channel, which that store hears itself.
      if (channel === this.channel) this.receive(text);
    });
    this.publisher.on('error', (error: Error) => this.onError('publisher', error));
    this.subscriber.on('error', (error: Error) => this.onError('subscriber', error));
  }

  /** Resolves once the bus is subscribed and caught up the first time (it never rejects: Redis may come later). */
  ready(): Promise<void> {
    return this.readyPromise;
  }

  get size(): number {
    return this.local.size;
  }

  /**
   * The deployment's shared rate-limit counts ({@link RedisRateLimitStore}, on this bus's
   * publishing connection): `createServer` counts in it unless `rateLimit.store` says otherwise,
   * so each caller has one budget across the instances. Made on first use.
   */
  get rateLimitStore(): RedisRateLimitStore {
    this.store ??= new RedisRateLimitStore({
      client: this.publisher,
      keyPrefix: this.rateLimitKeyPrefix,
      timeoutMs: this.rateLimitTimeoutMs,
      logger: this.baseLogger.child({ redis: this.address, instanceId: this.instanceId }),
    });
    return this.store;
  }

  /**
   * The deployment's shared tasks ({@link RedisTaskStore}, on this bus's connections): the Tasks
   * extension keeps them here unless `taskStore` says otherwise, so any instance answers for a
   * task another one runs. Made on first use; closed with the bus.
   */
  get taskStore(): RedisTaskStore {
    this.tasks ??= new RedisTaskStore({
      client: this.publisher,
      subscriber: this.subscriber,
      keyPrefix: this.taskKeyPrefix,
      timeoutMs: this.taskTimeoutMs,
      logger: this.baseLogger.child({ redis: this.address, instanceId: this.instanceId }),
    });
    return this.tasks;
  }

  /** What the bus holds and whether it is connected, for health checks (see {@link RedisBusStats}). */
  stats(): RedisBusStats {
    return {
      instanceId: this.instanceId,
      connected: this.subscribed && this.publisher.status === 'ready',
      buffered: this.outbox.size,
      dropped: this.outbox.dropped,
      held: this.held?.length ?? 0,
      knownInstances: this.seen.size,
    };
  }

  publish(event: LiveEvent, options?: PublishOptions): void {
    this.local.publish(event);
    if (!options?.local) this.send({ e: event });
  }

  replicate(change: LiveChange): void {
    this.send({ c: change });
  }

  onReplicated(apply: (change: LiveChange) => void): void {
    this.replicaHandlers.push(apply);
  }

  subscribe(sink: SubscriberSink, options?: SubscribeOptions): BusSubscription {
    return this.local.subscribe(sink, options);
  }

  /** Ends the local subscriptions (their closing result) and closes the Redis connections. */
  shutdown(): void {
    this.local.shutdown();
    void this.close();
  }

  /** Closes the Redis connections, after the writes in flight; messages still buffered are lost (and logged). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.tasks?.close();
    if (this.outbox.size > 0)
      this.logger.warn({ buffered: this.outbox.size }, `closing with ${this.outbox.size} notifications never sent: Redis was unavailable`);
    await Promise.all(
      [this.publisher, this.subscriber].map(async (client) => {
        try {
          if (client.status === 'ready') await client.quit();
        } catch {
          // the connection went first; disconnect() below stops its retries
        }
        client.disconnect();
      }),
    );
  }

  private send(body: { e: LiveEvent } | { c: LiveChange }): void {
    if (this.closed) return;
    const seq = ++this.seq;
    const item: Pending = { seq, text: encodeMessage({ v: 1, o: this.instanceId, s: seq, ...body } as BusMessage) };
    if (this.publisher.status === 'ready' && this.outbox.size === 0) this.write(item);
    else this.queue(item);
  }

  /** Publishes a message and appends it to the capped replay list, in one transaction. */
  private write(item: Pending): void {
    this.publisher
      .multi()
      .rpush(this.replayKey, item.text)
      .ltrim(this.replayKey, -this.replayLimit, -1)
      .pexpire(this.replayKey, this.replayTtlMs)
      .publish(this.channel, item.text)
      .exec()
      .then(
        (results) => {
          const failed = results?.find(([error]) => error)?.[0];
          if (failed) this.logger.warn({ err: failed }, `Redis refused a notification: ${failed.message}`);
        },
        // The connection went while the write was in flight: it waits for the reconnect (a
        // duplicate, if it did land, is dropped by the receivers' sequence check).
        () => this.queue(item),
      );
  }

  private queue(item: Pending): void {
    if (this.outbox.add(item)) return;
    if (this.outbox.dropped === this.outage.droppedBefore + 1 || this.outbox.dropped % 1000 === 0) {
      this.logger.warn(
        { bufferLimit: this.outbox.limit, dropped: this.outbox.dropped },
        `Redis unavailable and ${this.outbox.limit} notifications already buffered: dropping new ones (other instances will miss them)`,
      );
    }
  }

  private onPublisherReady(): void {
    this.publisherUp.settled = true;
    this.publisherUp.resolve();
    const pending = this.outbox.drain();
    const dropped = this.outbox.dropped - this.outage.droppedBefore;
    if (this.outage.logged || pending.length > 0 || dropped > 0) {
      this.logger.info(
        { flushed: pending.length, dropped },
        `Redis back: sending ${pending.length} buffered notifications${dropped > 0 ? `; ${dropped} were dropped while it was away` : ''}`,
      );
    }
    this.outage = { logged: false, droppedBefore: this.outbox.dropped };
    for (const item of pending) this.write(item);
  }

  private resetPublisherUp(): void {
    if (this.publisherUp && !this.publisherUp.settled) return;
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    this.publisherUp = { promise, resolve, settled: false };
  }

  private onSubscriberClose(): void {
    this.subscribed = false;
    this.generation++;
    this.onUnavailable('subscriber', 'connection closed');
  }

  private onError(connection: string, error: Error): void {
    this.onUnavailable(connection, error.message, error);
  }

  /** One warning per outage (the first sign of it); every later failed attempt is a debug line. */
  private onUnavailable(connection: string, reason: string, error?: Error): void {
    if (this.closed) return;
    if (!this.outage.logged) {
      this.outage.logged = true;
      this.logger.warn(
        { err: error, connection },
        `Redis unavailable (${reason}): reconnecting with backoff, buffering up to ${this.outbox.limit} notifications`,
      );
    } else this.logger.debug({ err: error, connection }, `Redis still unavailable (${reason})`);
  }

  /**
   * (Re)joins the channel: the first time it notes what the replay list already holds (history
   * from before this instance is not replayed), then subscribes, then applies whatever the list
   * gained that it has not seen — what other instances sent while this one was disconnected.
   * Messages arriving meanwhile are held and applied after, so each sender's order is kept.
   */
  private async onSubscriberReady(): Promise<void> {
    const generation = ++this.generation;
    this.held = [];
    try {
      if (!this.baselined) {
        for (const message of await this.replayed()) this.seen.admit(message.o, message.s);
        this.baselined = true;
      }
      await this.subscriber.subscribe(this.channel);
      if (generation !== this.generation) return;
      this.subscribed = true;
      const missed = await this.replayed();
      if (generation !== this.generation) return;
      let applied = 0;
      for (const message of missed) if (this.apply(message)) applied++;
      this.logger.info(
        { caughtUp: applied },
        `subscribed to ${this.channel}${applied > 0 ? `; applied ${applied} messages sent while this instance was disconnected` : ''}`,
      );
    } catch (error) {
      this.logger.debug({ err: error }, 'joining the channel failed; retrying on reconnect');
    } finally {
      if (generation === this.generation) {
        const held = this.held ?? [];
        this.held = undefined;
        for (const message of held) this.apply(message);
        if (this.subscribed) this.resolveReady();
      }
    }
  }

  /** The replay list's messages from other instances, read once the publisher connection is up. */
  private async replayed(): Promise<BusMessage[]> {
    await this.publisherUp.promise;
    const texts = await this.publisher.lrange(this.replayKey, 0, -1);
    return texts.map(parseMessage).filter((m): m is BusMessage => m !== undefined && m.o !== this.instanceId);
  }

  private receive(text: string): void {
    const message = parseMessage(text);
    if (!message) {
      this.logger.warn({ channel: this.channel, bytes: text.length }, 'ignored a message on the bus channel that is not a Decorum bus message');
      return;
    }
    if (message.o === this.instanceId) return;
    if (this.held && this.held.length < HELD_LIMIT) this.held.push(message);
    else this.apply(message);
  }

  /** Delivers an event or applies a change once per message; `false` when it was already seen. */
  private apply(message: BusMessage): boolean {
    if (!this.seen.admit(message.o, message.s)) return false;
    if (message.e) this.local.publish(message.e);
    else for (const apply of this.replicaHandlers) apply(message.c);
    return true;
  }
}
