import type { Logger } from 'pino';
import { DecorumStartupError, StartupErrorCode } from '../errors/startup-error.js';
import { InternalError } from '../errors/protocol-errors.js';
import { LinkedList, ListEntry } from '@decorum/transport-kit';
import type { PipelineCall } from './call.js';
import { stepName } from './step-name.js';

/**
 * How long one guard or middleware may run on its own before the request is ended, unless
 * `stepTimeoutMs` says otherwise: long enough for a remote check (a token introspection, a
 * database lookup), short enough that a step that never answers does not hold a request forever.
 */
export const DEFAULT_STEP_TIMEOUT_MS = 30_000;

/** A guard or a middleware, as named in errors. */
type Step = (...args: never[]) => unknown;

/**
 * One request's clock on its guards and middleware. The chain is sequential — a step runs, calls
 * `next()` at most once, and resumes when that settles — so one watch per request is enough: it
 * is armed for the step whose own code is running and disarmed while the rest of the chain (at
 * the end, the handler) runs, so a long tool call never counts against its middleware. The watch
 * is in its timer's list from {@link StepTimer.watch} to {@link StepWatch.end}: arming and
 * disarming only move the deadline, so a request with several steps costs one insertion and one
 * removal, not one of each per step.
 */
export class StepWatch extends ListEntry<StepWatch> {
  /** When the armed step's time is up (ms since the epoch); `Infinity` while disarmed. */
  deadline = Infinity;
  /** Set once the time was up: the request has been answered, so the rest of the chain must not run. */
  expired = false;
  private step: Step | undefined;
  private index = 0;
  private kind: 'Guard' | 'Middleware' = 'Middleware';

  constructor(
    private readonly timer: StepTimer,
    private readonly call: PipelineCall,
    private readonly expire: (error: InternalError) => void,
  ) {
    super();
  }

  /** The step's own code starts (or resumes, once its `next()` settled). */
  arm(kind: 'Guard' | 'Middleware', step: Step, index: number): void {
    if (this.expired) return;
    this.kind = kind;
    this.step = step;
    this.index = index;
    this.deadline = Date.now() + this.timer.limitMs;
  }

  /** The step answered, or handed on to the rest of the chain. */
  disarm(): void {
    this.deadline = Infinity;
  }

  /** The chain (or the guard) settled: the watch is done with its timer. */
  end(): void {
    this.disarm();
    this.timer.unwatch(this);
  }

  /** Called by the timer once the deadline passed: answers the request with an error naming the step. */
  fire(): void {
    if (this.expired) return;
    this.expired = true;
    const name = stepName(this.step!, this.index, this.kind.toLowerCase());
    const error = new InternalError(
      `${this.kind} "${name}" did not answer within ${this.timer.limitMs} ms (stepTimeoutMs), so the request was ended: a ${this.kind === 'Guard' ? 'guard must answer true or false' : 'middleware must call next() or return a result'}`,
    );
    // The server log when there is one: a request's ctx.log may forward to the client.
    (this.timer.log ?? this.call.ctx.log).warn(
      { step: name, kind: this.kind.toLowerCase(), stepTimeoutMs: this.timer.limitMs, rpcId: this.call.id },
      'pipeline step timed out',
    );
    this.expire(error);
  }
}

/**
 * The bound on the guards and middleware of one server (`stepTimeoutMs`). The watches of requests
 * in their chain sit in a list that one unref'd interval sweeps, so a step costs a `Date.now()`, not
 * a timer of its own; the interval stops at the first sweep that finds the list empty. The list runs
 * through the watches themselves (see {@link LinkedList}: a `Set` of them cost a hash and table
 * upkeep per request).
 */
export class StepTimer {
  private readonly watches = new LinkedList<StepWatch>();
  private sweeper: NodeJS.Timeout | undefined;
  private readonly periodMs: number;

  constructor(
    readonly limitMs: number,
    /** The server log, where timed-out steps are reported. */
    readonly log?: Logger,
  ) {
    // A step ends between limitMs and limitMs + periodMs after it started.
    this.periodMs = Math.max(5, Math.min(1000, Math.floor(limitMs / 4)));
  }

  /** The timer of `stepTimeoutMs` (a positive integer, or `false` for none). */
  static create(option: number | false | undefined, log?: Logger): StepTimer | undefined {
    if (option === false) return undefined;
    const limit = option ?? DEFAULT_STEP_TIMEOUT_MS;
    if (!Number.isInteger(limit) || limit < 1)
      throw new DecorumStartupError(StartupErrorCode.INVALID_NUMBER, `stepTimeoutMs must be a positive integer or false (got ${String(limit)})`);
    return new StepTimer(limit, log);
  }

  /** A watch for one request; `expire` answers it when a step's time is up. */
  watch(call: PipelineCall, expire: (error: InternalError) => void): StepWatch {
    const watch = this.watches.add(new StepWatch(this, call, expire));
    if (this.sweeper === undefined) {
      this.sweeper = setInterval(() => this.sweep(), this.periodMs);
      this.sweeper.unref();
    }
    return watch;
  }

  /**
   * Bounds one pending guard verdict (guards do not nest, so each gets its own watch): the
   * verdict, or an {@link InternalError} naming the guard once its time is up.
   */
  bound<T>(verdict: PromiseLike<T>, guard: Step, index: number, call: PipelineCall): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const watch = this.watch(call, reject);
      watch.arm('Guard', guard, index);
      verdict.then(
        (value) => {
          watch.end();
          resolve(value);
        },
        (error: unknown) => {
          watch.end();
          reject(error);
        },
      );
    });
  }

  /** How many requests' watches the timer holds (their chains are running). */
  get watchedCount(): number {
    return this.watches.size;
  }

  /** Takes a watch out of the timer (its chain settled). */
  unwatch(watch: StepWatch): void {
    this.watches.remove(watch);
  }

  private sweep(): void {
    if (this.watches.size === 0) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
      return;
    }
    const now = Date.now();
    // The expired ones are taken out first, then fired: firing answers a request, which may end
    // other watches (never add one to this sweep).
    const expired: StepWatch[] = [];
    for (let watch = this.watches.first; watch; watch = watch.next) if (watch.deadline <= now) expired.push(watch);
    for (const watch of expired) {
      this.watches.remove(watch);
      watch.fire();
    }
  }
}
