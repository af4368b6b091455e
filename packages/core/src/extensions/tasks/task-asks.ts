/**
 * How a task's handler asks (`ctx.elicit`, `ctx.sample`, `ctx.roots`, `ctx.once`): an ask parks
 * the task in `input_required` with the ask under its key, and the handler waits where it is until
 * `tasks/update` answers that key — then it goes on in place, never re-run. Asks started together
 * (`Promise.all`) park together. Keys and answer checks are the MRTR round's (`asks/`), and so is
 * the `ctx.once` journal, kept in the task's record.
 */
import { isThenable } from '../../async/thenable.js';
import { AskKeys } from '../../asks/ask-keys.js';
import { checkAnswer } from '../../asks/answer-check.js';
import { elicitAsk, missingCapability, rootsAsk, sampleAsk, type Ask } from '../../asks/ask-requests.js';
import type { AskingCall, AskSeam, AskTarget, HandlerAsks, HandlerOutcome } from '../../asks/handler-asks.js';
import type { CreateMessageParams, CreateMessageResult, ElicitParams, ElicitResult, InputOptions, InputRequest, Root } from '../../asks/ask-types.js';
import type { RequestedSchema } from '../../asks/elicitation-schema.js';
import { OnceJournal } from '../../asks/once-journal.js';
import type { ClientCapabilities, JsonObject } from '../../protocol/types.js';
import type { TaskRecord } from './task-store.js';

/** What the asks need of their running task. */
export interface AskingTask {
  /** The stored answers and journal the run starts from. */
  readonly record: TaskRecord;
  /** Aborted on cancel and at the TTL: waiting asks end with its reason. */
  readonly signal: AbortSignal;
  /** Stores the outstanding asks (the task is `input_required` while there are any). */
  park(outstanding: Readonly<Record<string, InputRequest>>): void;
  /** Stores the `ctx.once` journal. */
  journal(entries: Readonly<Record<string, unknown>>): void;
}

const TASK_WHERE = 'the request that created this task';

/** A parked ask: what was asked, and how to resume its handler. */
interface Waiting {
  readonly request: InputRequest;
  readonly schema: RequestedSchema | undefined;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** The asks of one task's run. */
export class TaskAsks implements HandlerAsks {
  private readonly keys = new AskKeys('Task input key');
  private readonly onceJournal: OnceJournal;
  private readonly waiting = new Map<string, Waiting>();
  /** True while a park of the asks made in this turn is queued: concurrent asks join it. */
  private parkQueued = false;

  constructor(
    private readonly task: AskingTask,
    private readonly capabilities: ClientCapabilities,
    journalLimitBytes: number,
  ) {
    this.onceJournal = new OnceJournal({ ...task.record.journal }, journalLimitBytes);
    task.signal.addEventListener('abort', () => this.abandon(task.signal.reason), { once: true });
  }

  elicit(params: ElicitParams, options?: InputOptions): Promise<ElicitResult | undefined> {
    const key = this.keys.next('elicit', options);
    return this.wait(key, elicitAsk(params, this.capabilities), options) as Promise<ElicitResult | undefined>;
  }

  sample(params: CreateMessageParams, options?: InputOptions): Promise<CreateMessageResult | undefined> {
    const key = this.keys.next('sample', options);
    return this.wait(key, sampleAsk(params, this.capabilities), options) as Promise<CreateMessageResult | undefined>;
  }

  async roots(options?: InputOptions): Promise<Root[] | undefined> {
    const key = this.keys.next('roots', options);
    const answer = (await this.wait(key, rootsAsk(this.capabilities), options)) as { roots: Root[] } | undefined;
    return answer?.roots;
  }

  async once<T>(name: string, fn: () => T | Promise<T>): Promise<T> {
    this.keys.once(name);
    if (this.onceJournal.has(name)) return this.onceJournal.entries[name] as T;
    const stored = this.onceJournal.record(name, await fn());
    this.task.journal(this.onceJournal.entries);
    return stored;
  }

  /** The answer to `key`: already stored (a replay), or once `tasks/update` brings it. */
  private async wait(key: string, ask: Ask, options: InputOptions | undefined): Promise<unknown> {
    if (!ask.ok) return missingCapability(ask, options, TASK_WHERE);
    this.task.signal.throwIfAborted();
    const stored = this.task.record.answers[key];
    if (stored !== undefined) {
      const checked = checkAnswer(key, ask.request, stored, ask.schema);
      if (checked.ok) return checked.value;
    }
    return new Promise((resolve, reject) => {
      this.waiting.set(key, { request: ask.request, schema: ask.schema, resolve, reject });
      this.queuePark();
    });
  }

  /** Parks every waiting ask once this turn's asks are all made. */
  private queuePark(): void {
    if (this.parkQueued) return;
    this.parkQueued = true;
    queueMicrotask(() => {
      this.parkQueued = false;
      this.task.park(this.outstanding());
    });
  }

  /** The asks waiting for an answer, by key. */
  outstanding(): Record<string, InputRequest> {
    const out: Record<string, InputRequest> = {};
    for (const [key, waiting] of this.waiting) out[key] = waiting.request;
    return out;
  }

  /** Resumes the asks `record` holds answers for (answers were checked when `tasks/update` took them). */
  answered(record: TaskRecord): void {
    for (const [key, waiting] of this.waiting) {
      const answer: JsonObject | undefined = record.answers[key];
      if (answer === undefined) continue;
      this.waiting.delete(key);
      try {
        const checked = checkAnswer(key, waiting.request, answer, waiting.schema);
        if (checked.ok) waiting.resolve(checked.value);
        else waiting.reject(new Error(`the answer to "${key}" does not fit its form`));
      } catch (error) {
        waiting.reject(error);
      }
    }
  }

  /** Ends every waiting ask (the task was cancelled or expired). */
  private abandon(reason: unknown): void {
    for (const waiting of this.waiting.values()) waiting.reject(reason);
    this.waiting.clear();
  }
}

/** The ask seam of a task's run: the handler's asks are the task's. */
export class TaskAskSeam implements AskSeam {
  constructor(readonly asks: TaskAsks) {}

  run<T>(_call: AskingCall, _target: AskTarget, invoke: (asks: HandlerAsks) => T | Promise<T>): Promise<HandlerOutcome<T>> | HandlerOutcome<T> {
    const returned = invoke(this.asks);
    if (isThenable(returned)) return Promise.resolve(returned).then((value) => ({ kind: 'value', value, retry: false }));
    return { kind: 'value', value: returned, retry: false };
  }
}
