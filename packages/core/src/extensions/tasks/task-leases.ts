import type { Logger } from 'pino';
import { TERMINAL_STATUSES, type TaskRecord, type TaskStore } from './task-store.js';
import { positiveInteger } from './positive-integer.js';

/** Options of {@link TaskLeases}. */
export interface TaskLeasesOptions {
  readonly store: TaskStore;
  /** This instance's id, as the store's `runner.instance`. */
  readonly instance: string;
  /** How long a lease lasts unless renewed (default 15 s); it is renewed every third of it. */
  readonly leaseMs?: number;
  /** How often this instance looks for tasks whose runner's lease expired (default a third of `leaseMs`). */
  readonly sweepIntervalMs?: number;
  /** Tasks the sweep leaves alone though their lease expired (a parked task another instance may resume). */
  readonly spare?: (record: TaskRecord) => boolean;
  /** Called when a held lease is lost (the task finished elsewhere, or another instance claimed it): stop running it. */
  readonly onLost?: (taskId: string) => void;
  readonly logger?: Logger;
  /** The clock (epoch ms; default `Date.now`), for tests. Instances compare leases by their clocks: keep them in sync (NTP). */
  readonly now?: () => number;
}

/** Tasks failed per sweep at most (the rest wait for the next one). */
const SWEEP_BATCH = 100;

/**
 * The leases of the tasks this instance runs, and the sweep that fails tasks whose instance
 * stopped. While a task is held its lease is renewed every `leaseMs / 3` (one timer for them
 * all), so it lapses only when this instance stops renewing: it crashed, hung or lost the store for
 * a whole lease. Every instance sweeps (one unref'd timer): a task still `working` or
 * `input_required` whose lease ended is moved to `failed`, "The server instance running this task
 * stopped; its lease expired at …". A clean shutdown (`close`) releases the held leases at once.
 */
export class TaskLeases {
  readonly leaseMs: number;
  private readonly store: TaskStore;
  private readonly instance: string;
  private readonly spare: ((record: TaskRecord) => boolean) | undefined;
  private readonly onLost: ((taskId: string) => void) | undefined;
  private readonly logger: Logger | undefined;
  private readonly now: () => number;
  private readonly held = new Set<string>();
  private readonly sweeper: NodeJS.Timeout;
  private renewer: NodeJS.Timeout | undefined;
  private renewing = false;
  private sweeping = false;
  private closed = false;

  constructor(options: TaskLeasesOptions) {
    this.store = options.store;
    this.instance = options.instance;
    this.leaseMs = positiveInteger('TaskLeases', 'leaseMs', options.leaseMs ?? 15_000);
    this.spare = options.spare;
    this.onLost = options.onLost;
    this.logger = options.logger;
    this.now = options.now ?? Date.now;
    const sweepMs = positiveInteger('TaskLeases', 'sweepIntervalMs', options.sweepIntervalMs ?? Math.ceil(this.leaseMs / 3));
    this.sweeper = setInterval(() => void this.sweep(), sweepMs);
    this.sweeper.unref();
  }

  /** Whether this instance renews the task's lease. */
  holds(taskId: string): boolean {
    return this.held.has(taskId);
  }

  /**
   * Takes the task's lease (`claim`: even from an instance whose lease expired) and renews it until
   * `release`; whether it is held. Never rejects: when the store fails, a task of this instance's
   * own is held all the same (the renewals retry), a claim is not.
   */
  async hold(taskId: string, options?: { readonly claim?: boolean }): Promise<boolean> {
    if (this.closed) return false;
    try {
      if (!(await this.store.lease(taskId, this.instance, this.now() + this.leaseMs, options))) return false;
    } catch (error) {
      this.logger?.warn({ err: error, taskId }, `could not take a task's lease (${(error as Error).message})${options?.claim ? '' : '; retrying'}`);
      if (options?.claim) return false;
    }
    this.held.add(taskId);
    if (this.renewer === undefined) {
      this.renewer = setInterval(() => void this.renew(), Math.max(1, Math.floor(this.leaseMs / 3)));
      this.renewer.unref();
    }
    return true;
  }

  /** Stops renewing the task's lease (it finished, or this instance stops running it). */
  release(taskId: string): void {
    this.held.delete(taskId);
    if (this.held.size === 0) this.stopRenewing();
  }

  /**
   * `record`, or — when it is unfinished, its lease ended and the sweep would fail it — the record
   * once failed: the check a `tasks/get` makes so it never shows a dead instance's task as running.
   */
  async settle(record: TaskRecord): Promise<TaskRecord> {
    if (!this.stale(record, this.now())) return record;
    return (await this.fail(record)) ?? (await this.store.get(record.taskId)) ?? record;
  }

  /** Fails every task whose lease expired (the timer's work; callable, e.g. by tests): how many it failed. */
  async sweep(): Promise<number> {
    if (this.sweeping || this.closed) return 0;
    this.sweeping = true;
    let failed = 0;
    try {
      const now = this.now();
      for (const taskId of await this.store.expiredLeases(now, SWEEP_BATCH)) {
        const record = await this.store.get(taskId);
        if (record && this.stale(record, now) && (await this.fail(record))) failed++;
      }
    } catch (error) {
      this.logger?.warn({ err: error }, `the task lease sweep failed (${(error as Error).message}); it runs again in the next interval`);
    } finally {
      this.sweeping = false;
    }
    return failed;
  }

  /** Stops both timers and releases the held leases, so another instance may take their tasks at once. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.sweeper);
    this.stopRenewing();
    const held = [...this.held];
    this.held.clear();
    // A lease that ended a millisecond ago: any other instance may claim it now.
    const ended = this.now() - 1;
    await Promise.all(held.map((taskId) => this.store.lease(taskId, this.instance, ended).catch(() => false)));
  }

  /** Unfinished, leased, the lease ended before `now`, and not spared. */
  private stale(record: TaskRecord, now: number): boolean {
    const { status, runner } = record;
    return !TERMINAL_STATUSES.has(status) && runner !== undefined && runner.leaseUntil < now && !this.spare?.(record);
  }

  /** Moves the task to `failed` unless it finished or its lease was renewed meanwhile. */
  private async fail(record: TaskRecord): Promise<TaskRecord | undefined> {
    const message = `The server instance running this task stopped; its lease expired at ${new Date(record.runner!.leaseUntil).toISOString()}`;
    const failed = await this.store.transition(
      record.taskId,
      { status: 'failed', statusMessage: message, error: { code: -32603, message } },
      { statuses: ['working', 'input_required'], leaseEndedBy: this.now() },
    );
    if (failed) this.logger?.warn({ taskId: record.taskId, runner: record.runner!.instance }, message);
    return failed;
  }

  private async renew(): Promise<void> {
    if (this.renewing) return;
    this.renewing = true;
    try {
      const until = this.now() + this.leaseMs;
      await Promise.all(
        [...this.held].map(async (taskId) => {
          try {
            if (await this.store.lease(taskId, this.instance, until)) return;
            if (!this.held.delete(taskId)) return;
            this.logger?.warn({ taskId }, 'lost the lease of a task this instance runs (it finished elsewhere or another instance took it)');
            this.onLost?.(taskId);
          } catch (error) {
            this.logger?.warn({ err: error, taskId }, `could not renew a task's lease (${(error as Error).message}); retrying`);
          }
        }),
      );
    } finally {
      this.renewing = false;
      if (this.held.size === 0) this.stopRenewing();
    }
  }

  private stopRenewing(): void {
    clearInterval(this.renewer);
    this.renewer = undefined;
  }
}
