import { randomUUID } from 'node:crypto';
import {
  DecorumStartupError,
  InvalidParamsError,
  McpProtocolError,
  StartupErrorCode,
  TaskStoreUnavailableError,
  type JsonObject,
  type Logger,
  type TaskEvent,
  type TaskPage,
  type TaskPatch,
  type TaskRecord,
  type TaskStore,
} from '@decorum/core';
import {
  answered,
  cancelRequested,
  createDefaultLogger,
  listedFor,
  readTaskCursor,
  transitioned,
  writeTaskCursor,
  type TransitionExpectation,
} from '@decorum/core/transport';
import type { Redis } from 'ioredis';
import { changedMessage, readMessage, recordOf, signalMessage, storedJson } from './task-message.js';
import { taskCommands, type TaskCommands } from './task-scripts.js';

/** Options of {@link RedisTaskStore}. */
export interface RedisTaskStoreOptions {
  /** The connection commands go to: the primary, so every read sees every acknowledged write. */
  client: Redis;
  /** A connection for the tasks channel (subscribe mode); a `RedisNotificationBus` passes its subscriber. */
  subscriber: Redis;
  /** Prefix of the tasks' keys and channel (default `decorum:tasks:`); one per deployment sharing a Redis. */
  keyPrefix?: string;
  /** How long a store operation may take before it fails (default 2,000 ms). */
  timeoutMs?: number;
  /** Where a failed subscription is logged (default: core's logger). */
  logger?: Logger;
}

/** Writes that found the task changed meanwhile are retried this often before the operation fails. */
const WRITE_ATTEMPTS = 16;
/** Ids read from the owner's index per round while a page of `list` is filled. */
const LIST_BATCH = 64;

type Commands = Redis & TaskCommands;

/**
 * A {@link TaskStore} in Redis, shared by every instance of a deployment: one instance creates a
 * task, any instance reads, answers or cancels it, and a cancel or an answer reaches the instance
 * running it on the tasks channel.
 *
 * - A task is one hash that expires at `createdAt + ttlMs` (`PEXPIREAT`); a per-owner sorted set
 *   pages `list`, and a sorted set of lease ends gives the lease sweep its work.
 * - Every change is a compare-and-set: the record is read, changed by the same rules as
 *   `MemoryTaskStore`'s, and written by one Lua script only if its version is unchanged — which
 *   also bumps it, updates the indexes and publishes the change; otherwise it is read again.
 * - It **fails closed**: when Redis is down, slow (`timeoutMs`) or refuses, the operation rejects
 *   with `TaskStoreUnavailableError` (-32603), so no task id is issued that was not stored.
 * - A failover to a replica may lose the last writes Redis acknowledged (replication is
 *   asynchronous): a task created just before may be gone.
 *
 * `RedisNotificationBus` makes one on its connections (`bus.taskStore`), which the Tasks extension
 * uses when no `taskStore` is given.
 */
export class RedisTaskStore implements TaskStore {
  /** This store's tag on the channel: it hears its own changes at once, not back from Redis. */
  private readonly tag = randomUUID();
  private readonly client: Commands;
  private readonly subscriber: Redis;
  private readonly prefix: string;
  private readonly channel: string;
  private readonly leasesKey: string;
  private readonly timeoutMs: number;
  private readonly logger: Logger;
  private readonly listeners = new Set<(event: TaskEvent) => void>();
  private closed = false;

  constructor(options: RedisTaskStoreOptions) {
    this.client = taskCommands(options.client);
    this.subscriber = options.subscriber;
    this.prefix = options.keyPrefix ?? 'decorum:tasks:';
    this.channel = `${this.prefix}events`;
    this.leasesKey = `${this.prefix}leases`;
    this.timeoutMs = options.timeoutMs ?? 2000;
    if (!Number.isInteger(this.timeoutMs) || this.timeoutMs < 1)
      throw new DecorumStartupError(StartupErrorCode.INVALID_NUMBER, `RedisTaskStore: timeoutMs must be a positive integer (got ${this.timeoutMs})`);
    this.logger = (options.logger ?? createDefaultLogger()).child({ component: 'redis-task-store' });
    this.subscriber.on('message', this.onMessage);
    this.subscriber.on('ready', this.join);
    if (this.subscriber.status === 'ready') this.join();
  }

  create(record: TaskRecord): Promise<void> {
    return this.within('storing a task', async () => {
      const expiresAt = record.ttlMs === null ? '' : record.createdAt + record.ttlMs;
      const stored = await this.client.decorumTaskCreate(
        this.taskKey(record.taskId),
        this.ownerKey(record.owner),
        `${this.ownerKey(record.owner)}:expiries`,
        this.leasesKey,
        storedJson(record),
        record.status,
        record.version,
        record.runner?.instance ?? '',
        record.runner?.leaseUntil ?? '',
        record.taskId,
        record.createdAt,
        expiresAt,
        Date.now(),
      );
      if (stored === 0) throw new InvalidParamsError(`Task ${record.taskId} already exists`);
    });
  }

  get(taskId: string): Promise<TaskRecord | undefined> {
    return this.within('reading a task', () => this.read(taskId));
  }

  async transition(taskId: string, patch: TaskPatch, expect?: TransitionExpectation): Promise<TaskRecord | undefined> {
    const { record, written } = await this.change('changing a task', taskId, (current) => {
      const next = transitioned(current, patch, expect);
      return next && { next, signals: [] };
    });
    return written ? record : undefined;
  }

  async answer(
    taskId: string,
    responses: Readonly<Record<string, JsonObject>>,
  ): Promise<{ readonly accepted: readonly string[]; readonly record: TaskRecord | undefined }> {
    let accepted: readonly string[] = [];
    const { record } = await this.change('answering a task', taskId, (current) => {
      const outcome = answered(current, responses);
      accepted = outcome.accepted;
      return outcome.next && { next: outcome.next, signals: [{ type: 'answered', taskId, keys: outcome.accepted }] };
    });
    return { accepted, record };
  }

  async requestCancel(taskId: string): Promise<TaskRecord | undefined> {
    const { record } = await this.change('cancelling a task', taskId, (current) => {
      const next = cancelRequested(current);
      return next && { next, signals: [{ type: 'cancel', taskId }] };
    });
    return record;
  }

  lease(taskId: string, instance: string, untilMs: number, options?: { readonly claim?: boolean }): Promise<boolean> {
    return this.within('leasing a task', async () => {
      const held = await this.client.decorumTaskLease(
        this.taskKey(taskId),
        this.leasesKey,
        instance,
        untilMs,
        options?.claim ? '1' : '',
        Date.now(),
        taskId,
        this.channel,
        this.tag,
      );
      return held === 1;
    });
  }

  expiredLeases(nowMs: number, limit: number): Promise<readonly string[]> {
    return this.within('finding expired leases', () => this.client.decorumTaskExpiredLeases(this.leasesKey, nowMs, limit, this.taskKey('')));
  }

  async list(owner: string | undefined, session: string | undefined, cursor: string | undefined, limit: number): Promise<TaskPage> {
    const after = cursor === undefined ? undefined : readTaskCursor(cursor);
    return this.within('listing tasks', async () => {
      const key = this.ownerKey(owner);
      const records: TaskRecord[] = [];
      const gone: string[] = [];
      const max = after === undefined ? '+inf' : after.createdAt;
      for (let offset = 0; records.length <= limit; offset += LIST_BATCH) {
        const batch = await this.client.zrevrangebyscore(key, max, '-inf', 'WITHSCORES', 'LIMIT', offset, LIST_BATCH);
        for (let i = 0; i < batch.length; i += 2) {
          const taskId = batch[i]!;
          // Ties in the cursor's millisecond come in descending id order: skip those at or before the cursor.
          if (after !== undefined && Number(batch[i + 1]) === after.createdAt && taskId >= after.taskId) continue;
          const record = await this.read(taskId);
          if (record === undefined) gone.push(taskId);
          else if (listedFor(record, owner, session)) records.push(record);
          if (records.length > limit) break;
        }
        if (batch.length < LIST_BATCH * 2) break;
      }
      // Expired tasks leave their id in the index: dropped once the page is read (not during, which would shift it).
      if (gone.length > 0) await this.client.zrem(key, ...gone);
      const page = records.slice(0, limit);
      const last = page.at(-1);
      return records.length > limit && last ? { records: page, nextCursor: writeTaskCursor(last) } : { records: page };
    });
  }

  watch(listener: (event: TaskEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops hearing the channel (the connections belong to whoever passed them). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.listeners.clear();
    this.subscriber.off('message', this.onMessage);
    this.subscriber.off('ready', this.join);
    if (this.subscriber.status === 'ready') await this.subscriber.unsubscribe(this.channel).catch(() => undefined);
  }

  private taskKey(taskId: string): string {
    return `${this.prefix}task:${taskId}`;
  }

  /** The owner's index: `=` and the owner, or `-` for tasks without one. */
  private ownerKey(owner: string | undefined): string {
    return `${this.prefix}owner:${owner === undefined ? '-' : `=${owner}`}`;
  }

  private async read(taskId: string): Promise<TaskRecord | undefined> {
    const [json, version, instance, leaseUntil] = await this.client.hmget(this.taskKey(taskId), 'r', 'v', 'ri', 'rl');
    return json === null || version === null ? undefined : recordOf(JSON.parse(json) as Omit<TaskRecord, 'version' | 'runner'>, version, instance, leaseUntil);
  }

  /**
   * Reads the task, asks `decide` what it becomes, and writes that if nobody wrote meanwhile (else
   * reads again): the record after, and whether this wrote it. Watchers here hear it at once.
   */
  private change(
    what: string,
    taskId: string,
    decide: (current: TaskRecord) => { next: TaskRecord; signals: Array<Extract<TaskEvent, { type: 'cancel' | 'answered' }>> } | undefined,
  ): Promise<{ readonly record: TaskRecord | undefined; readonly written: boolean }> {
    return this.within(what, async () => {
      for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
        const current = await this.read(taskId);
        if (current === undefined) return { record: undefined, written: false };
        const decided = decide(current);
        if (decided === undefined) return { record: current, written: false };
        const next: TaskRecord = { ...decided.next, version: current.version + 1, lastUpdatedAt: Date.now() };
        const signals = decided.signals.map((signal) =>
          signalMessage(signal.type === 'cancel' ? { o: this.tag, t: 'cancel', id: taskId } : { o: this.tag, t: 'answered', id: taskId, k: signal.keys }),
        );
        const outcome = await this.client.decorumTaskWrite(
          this.taskKey(taskId),
          this.leasesKey,
          String(current.version),
          storedJson(next),
          next.status,
          next.runner?.instance ?? '',
          next.runner?.leaseUntil ?? '',
          taskId,
          this.channel,
          changedMessage(this.tag, next),
          ...signals,
        );
        if (outcome === -1) return { record: undefined, written: false };
        if (outcome === 1) {
          this.emit({ type: 'changed', record: structuredClone(next) });
          for (const signal of decided.signals) this.emit(signal);
          return { record: next, written: true };
        }
      }
      throw new Error(`the task changed under ${WRITE_ATTEMPTS} attempts in a row`);
    });
  }

  /** Runs `work` within `timeoutMs`; any failure but a protocol error becomes `TaskStoreUnavailableError`. */
  private async within<T>(what: string, work: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis did not answer within ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    try {
      return await Promise.race([work(), late]);
    } catch (error) {
      if (error instanceof McpProtocolError) throw error;
      throw new TaskStoreUnavailableError(`${what} in Redis failed: ${(error as Error).message}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  private emit(event: TaskEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A watcher's failure is its own; the others still hear the event.
      }
    }
  }

  /** (Re)subscribes to the tasks channel whenever the subscriber connection is ready. */
  private readonly join = (): void => {
    this.subscriber.subscribe(this.channel).catch((error: unknown) => {
      this.logger.warn({ err: error }, `could not subscribe to ${this.channel}: changes made on other instances are not heard until it reconnects`);
    });
  };

  private readonly onMessage = (channel: string, text: string): void => {
    if (channel !== this.channel) return;
    const message = readMessage(text);
    if (message === undefined) {
      this.logger.warn({ channel, bytes: text.length }, 'ignored a message on the tasks channel that is not a Decorum task message');
      return;
    }
    if (message.origin !== this.tag) this.emit(message.event);
  };
}
