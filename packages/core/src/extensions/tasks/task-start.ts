/**
 * `start: 'handler'`: the handler runs as a plain request — its asks are MRTR rounds — until it
 * calls `startTask(ctx)`. Then the task is stored, the call answers with it, and the same run goes
 * on as the task (its later asks park the task). This is how MRTR rounds resolve before a task exists.
 */
import type { AskingCall, AskSeam, AskTarget, HandlerAsks, HandlerOutcome } from '../../asks/handler-asks.js';
import type { CreateMessageParams, ElicitParams, InputOptions } from '../../asks/ask-types.js';
import { mrtrSeam } from '../../asks/mrtr/mrtr-seam.js';
import type { RequestContext } from '../../context/request-context.js';
import { extensionData } from '../extension-data.js';

/** Where a `start: 'handler'` run keeps its start (read back with `extensionData`). */
export const TASK_START = Symbol('decorum.tasks.start');

/** Stores the task and answers the call with it; later calls do nothing. */
export type TaskStarter = (options?: { readonly statusMessage?: string }) => Promise<void>;

/**
 * Makes the running call a task (a tool with `task: { start: 'handler' }`): resolves once the task
 * is stored and the call has answered with it. Outside such a call (a client without the
 * extension, an `optional` tool called plainly) it does nothing: the call stays a plain one.
 */
export async function startTask(ctx: RequestContext, options?: { readonly statusMessage?: string }): Promise<void> {
  const start = extensionData<TaskStarter>(ctx, TASK_START);
  if (start) await start(options);
}

/** Asks that are the MRTR round's until the task starts, the task's after. */
class SwitchingAsks implements HandlerAsks {
  constructor(
    private readonly before: HandlerAsks,
    private readonly handoff: TaskHandoff,
  ) {}

  private get current(): HandlerAsks {
    return this.handoff.taskAsks ?? this.before;
  }

  elicit(params: ElicitParams, options?: InputOptions) {
    return this.current.elicit(params, options);
  }

  sample(params: CreateMessageParams, options?: InputOptions) {
    return this.current.sample(params, options);
  }

  roots(options?: InputOptions) {
    return this.current.roots(options);
  }

  once<T>(name: string, fn: () => T | Promise<T>): Promise<T> {
    return this.current.once(name, fn);
  }
}

/** The ask seam of a `start: 'handler'` run: an MRTR round whose asks switch to the task's at the start. */
export class TaskHandoff implements AskSeam {
  /** The task's asks, once it started. */
  taskAsks: HandlerAsks | undefined;

  run<T>(call: AskingCall, target: AskTarget, invoke: (asks: HandlerAsks) => T | Promise<T>): Promise<HandlerOutcome<T>> | HandlerOutcome<T> {
    return mrtrSeam.run(call, target, (round) => invoke(new SwitchingAsks(round, this)));
  }
}
