/**
 * The step around `tools/call` of a task tool. When the call's era makes it a task, the task is
 * stored first and the call answers with it; the handler then runs detached on a derived call
 * whose `ctx.signal`, asks and progress are the task's. Otherwise the call runs as it is.
 */
import { isThenable } from '../../async/thenable.js';
import type { CallResult } from '../../pipeline/middleware.js';
import type { PipelineCall } from '../../pipeline/call.js';
import type { ToolEntry } from '../../registry/entries.js';
import type { Around, DerivedCallOptions } from '../extension.js';
import { TaskAskSeam } from './task-asks.js';
import type { TaskEra } from './task-era.js';
import { TASK_ERAS } from './task-eras.js';
import type { TaskSupport } from './task-option.js';
import { ownerOf } from './task-owner.js';
import type { TaskRunner } from './task-runner.js';
import { TASK_START, TaskHandoff, type TaskStarter } from './task-start.js';
import { TaskEndedError } from './running-task.js';

type Proceed = (derived?: DerivedCallOptions) => Promise<CallResult>;

/** The `around` of the Tasks extension; `supportOf` reads a tool's checked `task` option. */
export function taskAround(runnerOf: () => TaskRunner, supportOf: (tool: ToolEntry) => TaskSupport | undefined): Around {
  return {
    applies: (tool) => supportOf(tool) !== undefined,
    run(call, proceed) {
      const tool = (call.target as { readonly entry: ToolEntry }).entry;
      const support = supportOf(tool)!;
      const era = TASK_ERAS.get(call.protocolVersion);
      // A revision without tasks (a legacy session before 2025-11-25) runs the tool inline.
      if (era === undefined || !era.runsAsTask({ params: call.params, clientCapabilities: call.ctx.client.capabilities }, support)) return proceed();
      // Invalid arguments never make a task: the call answers them as usual.
      const checking = tool.input.validate(call.arguments);
      if (isThenable(checking))
        return Promise.resolve(checking).then((checked) => (checked.ok ? begin(runnerOf(), call, era, tool, support, proceed) : proceed()));
      return checking.ok ? begin(runnerOf(), call, era, tool, support, proceed) : proceed();
    },
  };
}

function begin(runner: TaskRunner, call: PipelineCall, era: TaskEra, tool: ToolEntry, support: TaskSupport, proceed: Proceed): Promise<CallResult> {
  const settings = era.support ? era.support(call.params, support) : support;
  // A resumable tool's call is kept (modern era: a legacy task is bound to its session), so another instance can replay it.
  const stored =
    settings.resumable && era.name === 'modern'
      ? { name: tool.name, arguments: call.arguments, clientCapabilities: call.ctx.client.capabilities, protocolVersion: call.protocolVersion }
      : undefined;
  const newTask = {
    era,
    tool: tool.name,
    support: settings,
    owner: ownerOf(call.auth),
    session: era.session ? era.session(call) : call.sessionId,
    call: stored,
  };
  return settings.start === 'handler' ? startInHandler(runner, call, era, newTask, proceed) : startNow(runner, call, era, newTask, proceed);
}

type NewTaskOf = Parameters<TaskRunner['create']>[0];

/** `start: 'immediate'`: the task is stored, then the handler runs as the task. */
async function startNow(runner: TaskRunner, call: PipelineCall, era: TaskEra, newTask: NewTaskOf, proceed: Proceed): Promise<CallResult> {
  const running = runner.prepare();
  const record = await runner.create(newTask);
  const asks = running.begin(record, call.ctx.client.capabilities, Date.now());
  const outcome = proceed(
    era.derive?.(call, record, running.signal, runner.store) ?? {
      signal: running.signal,
      asks: new TaskAskSeam(asks),
      progress: (p, total, message) => running.progress(p, total, message),
    },
  );
  runner.adopt(record, era, running, outcome);
  return era.created(record);
}

/** `start: 'handler'`: the handler runs as a plain call (MRTR) until `startTask(ctx)`; the call answers with whichever comes first. */
function startInHandler(runner: TaskRunner, call: PipelineCall, era: TaskEra, newTask: NewTaskOf, proceed: Proceed): Promise<CallResult> {
  const running = runner.prepare();
  const handoff = new TaskHandoff();
  const requestSignal = call.ctx.signal;
  const onRequestAbort = () => running.abort(new TaskEndedError('The request was cancelled before its task started'));
  requestSignal.addEventListener('abort', onRequestAbort, { once: true });
  let started: Promise<void> | undefined;
  let answer: (result: CallResult) => void = () => {};
  let refuse: (error: unknown) => void = () => {};
  const answered = new Promise<CallResult>((resolve, reject) => {
    answer = resolve;
    refuse = reject;
  });
  const start: TaskStarter = (options) =>
    (started ??= (async () => {
      const record = await runner.create(options?.statusMessage === undefined ? newTask : { ...newTask, statusMessage: options.statusMessage });
      requestSignal.removeEventListener('abort', onRequestAbort);
      handoff.taskAsks = running.begin(record, call.ctx.client.capabilities, Date.now());
      runner.adopt(record, era, running, outcome);
      answer(era.created(record));
    })().catch((error: unknown) => {
      refuse(error);
      throw error;
    }));
  const outcome = proceed({
    signal: running.signal,
    asks: handoff,
    progress: (p, total, message) => (handoff.taskAsks ? running.progress(p, total, message) : call.ctx.progress(p, total, message)),
    data: new Map([[TASK_START, start]]),
  });
  // Before the start, the handler's own outcome (a plain result, input_required, an error) is the answer.
  outcome.then(
    (result) => {
      if (started === undefined) answer(result);
    },
    (error: unknown) => {
      if (started === undefined) refuse(error);
    },
  );
  return answered;
}
